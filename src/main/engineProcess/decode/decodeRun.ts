/**
 * A decode run, the production path for a long recording: fit once, decode the grid in windows of
 * rows (engine/likelihood/windows.ts) and stream each window's rows into likelihood/<strategy>.npy
 * in the run folder (`.partial` until the last row is in; a failure leaves the partial file with
 * the rows written so far), then decode.json beside it. Memory stays bounded by the window, the strategy's
 * tiles and the dataset itself. Recorded like any run: trace, progress, cancel, a report.
 * A shard (`--shard I/N`) decodes its electrodes only; decode.json says which, with the whole
 * dataset's fingerprint, so `kde-profiler merge` can add the shards' likelihoods up.
 */
import { join } from 'node:path';
import { isDispatch, type StrategyChoice } from '../../../shared/config';
import { summarizeDataset, type Dataset, type DatasetSummary } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import { formatBytes } from '../../../shared/format';
import { hasOneBinLocal } from '../../../shared/posteriorParameters';
import type { AutoProbeRecord, StageTime, StrategyResult } from '../../../shared/report';
import { datasetScale, machineLoadBetween, timingStats } from '../../analysis';
import { PRESET_INFO, writeFileAtomic } from '../../data';
import { estimateDatasetPeak, type PeakEstimate, type StrategyOptions } from '../../engine/model';
import { buildStateSpace, posteriorStageEstimate } from '../../engine/posterior';
import type { WindowSummary } from '../../engine';
import {
  DECODE_SUMMARY_FILE, likelihoodRelPath, type DecodeRequest, type DecodeSummary, type EngineOutcome, type EngineToHost, type PosteriorSummary,
  type StartMessage,
} from '../../engineProtocol';
import { nicenessOf, startRunSession, type EngineDeps, type EngineRun, type FittedModel, type RunInputs, type RunSession } from '../session';
import { DecodeProgress, type DecodePhase } from './decodeProgress';
import { decodeOutputSize } from './diskSpace';
import { LikelihoodStream, refuseBeyondDisk, writeAxes, type OutputSize } from '../runFiles';
import { fitOptionsFor, notApplicableFor, readLoad, refuseBeyondHeap } from '../measurement';
import { decodePosterior, placeGridOf } from '../posterior';
import { recordingProjection } from './recordingProjection';
import { markProbe, probeAutoStrategy } from '../autoProbe';

/** What the decode learned on its way, for decode.json and the report. */
interface Decoded {
  windows: WindowSummary;
  /** `auto`'s probe, where it ran */
  autoProbe?: AutoProbeRecord;
  posterior?: PosteriorSummary;
  fitMs: number;
  decodeMs: number;
  startUs: number;
  endUs: number;
}

export function startDecodeRun(start: StartMessage, request: DecodeRequest, deps: EngineDeps, send: (message: EngineToHost) => void): EngineRun {
  const progress = new DecodeProgress(undefined, request.posterior?.model);
  return startRunSession(start, deps, send, (within, detail) => progress.snapshot(within, detail), (session) =>
    new DecodeRun(session, start, request, deps, progress).run(),
  );
}

function onlyStrategy(start: StartMessage): StrategyChoice {
  const [strategy, ...more] = start.config.strategies;
  if (!strategy || more.length > 0) {
    throw new AppError('BAD_ARGUMENT', `a decode run takes one strategy (or auto), got ${start.config.strategies.join(', ')}: name one.`, { key: 'strategies' });
  }
  return strategy;
}

class DecodeRun {
  private readonly strategy: StrategyChoice;

  constructor(
    private readonly session: RunSession,
    private readonly start: StartMessage,
    private readonly request: DecodeRequest,
    private deps: EngineDeps,
    private readonly progress: DecodeProgress,
  ) {
    this.strategy = onlyStrategy(start);
  }

  async run(): Promise<EngineOutcome> {
    const { session, start, strategy } = this;
    const inputs = await session.loadInputs({
      onProgress: (p) => session.probe.progress(p.electrode / p.nElectrodes, `electrode ${p.electrode}/${p.nElectrodes}`),
    });
    const { dataset, backend, memory } = inputs;
    if (inputs.shard && this.request.posterior) {
      throw new AppError('BAD_ARGUMENT', 'a shard holds only some electrodes, and the posterior needs the likelihood of all of them: decode the shards without --model, merge them, then decode the posterior of the whole.', { key: 'posterior' });
    }
    this.deps = inputs.deps;
    const summary = summarizeDataset(dataset);
    const options = { ...this.deps.strategyOptionsFor(dataset, start.config), calibration: inputs.calibration };
    const estimate = estimateDatasetPeak(strategy, summary, options);
    const scale = datasetScale(summary, PRESET_INFO).sentence;
    session.log('info', `${summary.name}: ${scale}`);
    // the estimate is of one electrode's likelihood tensors: said so, it does not read as the peak the decode ends by measuring
    session.log('info', `estimated peak device memory of ${estimate.strategy}'s likelihood tensors for the largest electrode: ${formatBytes(estimate.deviceBytes)} ` +
      `(${estimate.formula}); the engine process holds the runtime and the data besides, and its measured peak RSS is given at the end`);
    refuseBeyondHeap(strategy, backend.name, estimate);
    const wanted = this.request.posterior;
    if (wanted) {
      const stage = posteriorStageEstimate({ ...wanted, rowsPerWindow: this.request.rowsPerChunk }, placeGridOf(dataset), dataset.time.length);
      session.log('info', `estimated memory of the ${wanted.model} posterior (${wanted.method}), held besides the likelihood's: ${formatBytes(stage.bytes)} of typed arrays (${stage.formula})`);
    }
    await refuseBeyondDisk(start.runDir, this.outputSize(dataset), { work: 'the decode' });

    memory.markStage(strategy);
    // the stage table of the fit and the decode, span by span: a long recording's spans are not kept
    session.probe.flush();
    session.spans.beginTally();
    let decoded: Decoded;
    let stages: StageTime[];
    // the machine's load around the work: a decode on a busy machine says its times are disturbed, as a run does
    const loadAtStart = readLoad();
    try {
      decoded = await this.fitAndDecode(dataset, options);
    } finally {
      session.probe.flush();
      stages = session.spans.endTally();
    }
    memory.markStage(undefined);
    await writeAxes(start.runDir, dataset);
    const decodeSummary = summaryOf(summary, scale, inputs, strategy, estimate, this.request, decoded);
    const projection = projectionOf(dataset, decoded, decodeSummary.peakRssBytes);
    if (projection) decodeSummary.projection = projection;
    await writeFileAtomic(join(start.runDir, DECODE_SUMMARY_FILE), `${JSON.stringify(decodeSummary, null, 2)}\n`);
    return {
      dataset: summary,
      backend,
      strategies: [{ ...strategyResult(decodeSummary, decoded, stages, memory.summary().stages[strategy]), load: machineLoadBetween(loadAtStart, readLoad()) }],
      notApplicable: notApplicableFor(backend),
      windows: [{ strategy, startUs: decoded.startUs, endUs: decoded.endUs }],
      calibration: inputs.calibration,
      workers: inputs.workers,
      tf32: inputs.tf32,
      ...nicenessOf(inputs.niceness),
      fingerprint: inputs.fingerprint,
      ...(inputs.shard ? { shard: inputs.shard } : {}),
      ...(decoded.posterior ? { posterior: decoded.posterior } : {}),
      ...(projection ? { projection } : {}),
    };
  }

  /** The fit, then the windowed decode streamed to the run folder; the model is freed either way. */
  private async fitAndDecode(dataset: Dataset, options: StrategyOptions): Promise<Decoded> {
    const { probe } = this.session;
    const startUs = probe.nowUs();
    this.enter('fitting');
    const t0 = performance.now();
    const model = await probe.span('encode', () =>
      this.deps.fitEncodingModel(dataset, probe, fitOptionsFor(this.strategy, this.start.config.memoryBudgetBytes)));
    const fitMs = performance.now() - t0;
    this.enter('decoding');
    const t1 = performance.now();
    try {
      const measured = this.strategy === 'auto'
        ? await probe.span('auto-probe', () => probeAutoStrategy(this.deps, model, dataset, options, this.session.signal))
        : null;
      if (measured) markProbe(probe, measured, (message) => this.session.log('info', message));
      const decodeOptions = measured ? { ...options, probed: measured.probed } : options;
      const args = { strategy: this.strategy, rowsPerChunk: this.request.rowsPerChunk };
      const windows = await probe.span('decode', () => this.decodeWindows(model, dataset, decodeOptions), args);
      this.session.emitProgress(1, `rows ${windows.nTime}/${windows.nTime}`);
      const decodeMs = performance.now() - t1;
      const posterior = await this.posterior(model, dataset);
      return { windows, fitMs, decodeMs, startUs, endUs: probe.nowUs(), ...(posterior ? { posterior } : {}), ...(measured ? { autoProbe: measured.record } : {}) };
    } finally {
      model.dispose();
    }
  }

  /** What the decode will write into the run folder: the likelihood, and the posterior's files when asked. */
  private outputSize(dataset: Dataset): OutputSize {
    const wanted = this.request.posterior;
    const space = wanted ? buildStateSpace(wanted.model, placeGridOf(dataset), wanted.parameters) : undefined;
    const nBins = dataset.placeBinCenters.length / dataset.positionDims;
    return decodeOutputSize(dataset.time.length, nBins, space ? { space, positionDims: dataset.positionDims } : undefined);
  }

  /** The likelihood window by window into its file (the summary times each batch of windows decoded together). */
  private async decodeWindows(model: FittedModel, dataset: Dataset, options: StrategyOptions): Promise<WindowSummary> {
    const nBins = dataset.placeBinCenters.length / dataset.positionDims;
    const file = join(this.start.runDir, likelihoodRelPath(this.strategy));
    const stream = await LikelihoodStream.open(file, [dataset.time.length, nBins]);
    try {
      // a decode times its likelihood as a whole: stages that waited for the device would each cost a
      // readback, where without them the device sums each batch's rows and it is read back once
      const windows = await this.deps.predictNonlocalWindows(
        model, dataset, this.strategy, { ...options, signal: this.session.signal, stageSync: false }, this.request.rowsPerChunk,
        (_startRow, _rows, values) => stream.append(values),
        this.session.probe,
      );
      await stream.finish();
      return windows;
    } catch (e) {
      await stream.abandon();
      throw e;
    }
  }

  /** The state-space posterior on the likelihood just written, when the request asks for one. */
  private async posterior(model: FittedModel, dataset: Dataset): Promise<PosteriorSummary | undefined> {
    const wanted = this.request.posterior;
    if (!wanted) return undefined;
    const { probe } = this.session;
    const t0 = performance.now();
    let local: Float64Array | undefined;
    if (hasOneBinLocal(wanted.model, wanted.parameters)) {
      this.enter('local');
      this.session.emitProgress(0, "(the detector's Local state)");
      local = await probe.span('local', () => this.localLikelihood(model, dataset));
    }
    const localMs = local ? performance.now() - t0 : 0;
    this.enter('posterior');
    const summary = await probe.span('posterior', () => decodePosterior({
      runDir: this.start.runDir,
      dataset,
      model: wanted.model,
      method: wanted.method,
      ...(wanted.parameters ? { parameters: wanted.parameters } : {}),
      likelihoodFile: join(this.start.runDir, likelihoodRelPath(this.strategy)),
      ...(local ? { local } : {}),
      rowsPerChunk: this.request.rowsPerChunk,
      probe,
      signal: this.session.signal,
      onProgress: (fraction, detail) => this.session.emitProgress(fraction, detail),
    }), { model: wanted.model, method: wanted.method });
    return { ...summary, ...(local ? { localMs } : {}) };
  }

  /** The Local state's log likelihood per row, with the model the decode fitted (in the workers where there is a pool). */
  private async localLikelihood(model: FittedModel, dataset: Dataset): Promise<Float64Array> {
    return this.deps.predictLocal(model, dataset, this.session.probe);
  }

  private enter(phase: DecodePhase): void {
    this.progress.enter(phase);
    this.session.emitProgress();
  }
}

/** The whole recording at this decode's rates: the likelihood, the Local likelihood and the posterior each scaled by rows. */
function projectionOf(dataset: Dataset, decoded: Decoded, peakRssBytes: number): DecodeSummary['projection'] {
  const p = decoded.posterior;
  const times = { likelihoodMs: decoded.decodeMs, localMs: p?.localMs ?? 0, posteriorMs: p ? p.filterMs + p.smoothMs : 0 };
  return recordingProjection(dataset, times, decoded.windows.batches, peakRssBytes);
}

function summaryOf(
  dataset: DatasetSummary, scale: string, inputs: RunInputs, strategy: StrategyChoice, estimate: PeakEstimate,
  request: DecodeRequest, decoded: Decoded,
): DecodeSummary {
  const { windows } = decoded;
  const summary: DecodeSummary = {
    dataset,
    scale,
    backend: inputs.backend,
    strategy,
    resolved: windows.resolved,
    ...(isDispatch(strategy) ? { resolvedReasons: Array.from(windows.resolved, (_s, e) => windows.resolvedReasons[e] ?? '') } : {}),
    estimatedPeakDeviceBytes: estimate.deviceBytes,
    estimateFormula: estimate.formula,
    rowsPerChunk: request.rowsPerChunk,
    windows: windows.windows,
    floorShare: windows.totalTerms > 0 ? windows.flooredTerms / windows.totalTerms : null,
    loadMs: inputs.loadMs,
    fitMs: decoded.fitMs,
    decodeMs: decoded.decodeMs,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    likelihoodFile: likelihoodRelPath(strategy),
    shape: [windows.nTime, windows.nBins],
    fingerprint: inputs.fingerprint,
  };
  if (inputs.shard) summary.shard = inputs.shard;
  if (decoded.posterior) summary.posterior = decoded.posterior;
  if (decoded.autoProbe) summary.autoProbe = decoded.autoProbe;
  return summary;
}

/** The decode as the report shows a strategy: one fit and one decode, no repeats. */
function strategyResult(
  summary: DecodeSummary, decoded: Decoded, stages: StageTime[], peaks: { heapBytes: number; tensorBytes: number; gpuUsedBytes: number } | undefined,
): StrategyResult {
  const result: StrategyResult = {
    strategy: summary.strategy,
    resolved: summary.resolved,
    ...(summary.resolvedReasons ? { resolvedReasons: summary.resolvedReasons } : {}),
    ...(summary.autoProbe ? { autoProbe: summary.autoProbe } : {}),
    status: 'ok',
    encode: timingStats(decoded.fitMs, []),
    decode: timingStats(decoded.decodeMs, []),
    total: timingStats(decoded.fitMs + decoded.decodeMs, []),
    stages,
    kernels: [],
    memory: { estimatedPeakBytes: summary.estimatedPeakDeviceBytes, measuredPeakTensorBytes: peaks?.tensorBytes ?? 0, peakHeapBytes: peaks?.heapBytes ?? 0 },
    likelihoodFile: summary.likelihoodFile,
  };
  if (result.memory && peaks && peaks.gpuUsedBytes > 0) result.memory.gpuBytes = peaks.gpuUsedBytes;
  // the posterior stage judged the likelihood's argmax against the true position: that is this row's accuracy
  const accuracy = decoded.posterior?.accuracy?.likelihood;
  if (accuracy) result.accuracy = accuracy;
  return result;
}
