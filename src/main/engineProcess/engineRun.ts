/**
 * The measurement loop of one run, inside the engine process: load the data, initialize the
 * backend, measure each strategy (strategyMeasure.ts), the local likelihood when asked, then the
 * agreement between strategies. Trace records stream out in batches as they are made; the outcome
 * is sent once at the end; likelihood arrays go to files. Cancellation is checked between steps.
 */
import type { StrategyChoice } from '../../shared/config';
import { summarizeDataset } from '../../shared/dataset';
import { serializeError } from '../../shared/errors';
import type { Agreement, AgreementMatrix, BackendInfo } from '../../shared/report';
import { agreementMatrix, compareArrays } from '../analysis';
import { MemorySampler, Recorder } from '../recorder';
import type { EngineDeps } from './engineDeps';
import { writeAxes, writeLikelihood } from './likelihoodFiles';
import { LOCAL_GROUP, measureLocal, type LocalMeasurement } from './localMeasure';
import { isCancellation, SpanCollector, type MeasureContext } from './measureContext';
import type { EngineOutcome, EngineToHost, StartMessage } from '../engineProtocol';
import { notApplicableFor } from './notApplicable';
import { ProgressTracker } from './progressTracker';
import { WatchedProbe } from './watchedProbe';
import { measureStrategy, type StrategyMeasurement } from './strategyMeasure';

export interface EngineRun {
  cancel(): void;
  /** resolves after the last message (result, error or cancelled) has been handed to `send` */
  done: Promise<void>;
}

const PROGRESS_INTERVAL_MS = 100;

function unitsPerStrategy(warmup: number, repeats: number): number {
  return 1 + warmup + repeats + 1;
}

function agreementsWithReference(measured: StrategyMeasurement[], nTime: number, nBins: number): void {
  const ref = measured.find((m) => m.result.strategy === 'reference' && m.likelihood);
  if (!ref?.likelihood) return;
  for (const m of measured) {
    if (m === ref || !m.likelihood || m.likelihood.length !== ref.likelihood.length) continue;
    m.result.agreementWithReference = compareArrays(m.likelihood, ref.likelihood, nTime, nBins, 'reference');
  }
}

export function startEngineRun(start: StartMessage, deps: EngineDeps, send: (message: EngineToHost) => void): EngineRun {
  const { config, runDir } = start;
  const spans = new SpanCollector();
  const groups = [
    ...config.strategies.map((s) => ({ name: s, units: unitsPerStrategy(config.warmup, config.repeats) })),
    ...(config.local ? [{ name: LOCAL_GROUP, units: 1 + config.warmup + config.repeats }] : []),
  ];
  const tracker = new ProgressTracker(groups);
  let lastProgressMs = 0;
  let within = 0;
  let detail = '';
  const emitProgress = (force = true) => {
    const now = performance.now();
    if (!force && now - lastProgressMs < PROGRESS_INTERVAL_MS) return;
    lastProgressMs = now;
    send({ type: 'progress', progress: tracker.snapshot(within, detail) });
  };
  let memory: MemorySampler | undefined;
  let probe: WatchedProbe | undefined;
  let sentOpen = '';
  // after each batch, the open spans if they changed: the live timeline draws them from the newest event
  const sendOpenSpans = () => {
    const open = probe?.openSpans() ?? [];
    const key = open.map((o) => `${o.name}@${o.startUs}`).join('|');
    if (key === sentOpen) return;
    sentOpen = key;
    send({ type: 'open-spans', spans: open });
  };
  const rec = new Recorder({
    proc: 'engine',
    originNs: start.originNs,
    disabled: !config.trace,
    laneName: 'engine',
    onBatch: (records) => {
      spans.observe(records);
      send({ type: 'trace', records });
      if (config.trace) sendOpenSpans();
    },
    onProgress: (fraction, label) => {
      within = fraction;
      detail = label;
      emitProgress(false);
    },
  });

  // every span the loop and the engine open goes through the probe: memory samples at span ends, open spans for the live view
  probe = new WatchedProbe(rec, { proc: 'engine', tid: rec.tid, onSpanEnd: () => memory?.sampleIfDue() });
  const watched = probe;
  const run = async (): Promise<EngineOutcome> => {
    const dataset = await watched.span('load-data', () => deps.loadDataset(config.data));
    const backend: BackendInfo = await watched.span('backend-init', () => deps.initBackend(config.backend));
    memory = new MemorySampler({ sink: rec, tensorMemory: () => deps.engineMemory(), gpu: backend.isGpu });
    memory.start();
    const ctx: MeasureContext = {
      deps, dataset, config, rec: watched, tracker, spans, memory,
      options: deps.strategyOptionsFor(dataset, config),
      emitProgress: () => {
        within = 0;
        detail = '';
        emitProgress(true);
      },
    };
    const nTime = dataset.time.length;
    const nBins = dataset.placeBinCenters.length / dataset.positionDims;
    const measured: StrategyMeasurement[] = [];
    for (const strategy of config.strategies as StrategyChoice[]) {
      const m = await measureStrategy(ctx, strategy);
      if (config.saveLikelihood && m.likelihood && m.likelihood.length === nTime * nBins) {
        m.result.likelihoodFile = await writeLikelihood(runDir, strategy, m.likelihood, nTime, nBins);
      }
      measured.push(m);
    }
    agreementsWithReference(measured, nTime, nBins);
    let local: LocalMeasurement | undefined;
    if (config.local) local = await measureLocal(ctx);
    const outcome: EngineOutcome = {
      dataset: summarizeDataset(dataset),
      backend,
      strategies: measured.map((m) => m.result),
      notApplicable: notApplicableFor(backend),
      windows: measured.map((m) => m.window),
    };
    const matrix = matrixOf(measured, nTime, nBins);
    if (matrix) outcome.agreementMatrix = matrix;
    if (local) {
      const entry: { timing: typeof local.timing; agreementWithExpected?: Agreement; likelihoodFile?: string } = { timing: local.timing };
      if (local.agreementWithExpected) entry.agreementWithExpected = local.agreementWithExpected;
      if (config.saveLikelihood) entry.likelihoodFile = await writeLikelihood(runDir, 'local', local.likelihood, nTime, 1);
      outcome.local = entry;
    }
    if (config.saveLikelihood) await writeAxes(runDir, dataset);
    return outcome;
  };

  const done = (async () => {
    try {
      const outcome = await watched.span('run', run, { runId: start.runId });
      memory?.stop();
      rec.flush();
      send({ type: 'result', outcome });
    } catch (e) {
      memory?.stop();
      rec.flush();
      if (isCancellation(e, rec)) send({ type: 'cancelled' });
      else send({ type: 'error', error: serializeError(e) });
    }
  })();
  return { cancel: () => rec.requestCancel(), done };
}

function matrixOf(measured: StrategyMeasurement[], nTime: number, nBins: number): AgreementMatrix | undefined {
  const ok = measured.filter((m) => m.likelihood && m.likelihood.length === nTime * nBins);
  if (ok.length < 2) return undefined;
  // the reference goes first: allclose treats the earlier entry as the reference side
  ok.sort((a, b) => Number(b.result.strategy === 'reference') - Number(a.result.strategy === 'reference'));
  return agreementMatrix(ok.map((m) => ({ name: m.result.strategy, values: m.likelihood! })), nTime, nBins);
}
