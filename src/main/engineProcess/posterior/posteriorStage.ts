/**
 * The posterior stage of a decode run (posterior-spec §8–§12), streamed window by window so no
 * T × N array is ever whole in memory: the filter reads the non-local likelihood the decode wrote,
 * adds the Local and No-Spike states, and writes the causal posterior to posterior/; the smoother
 * then walks the windows last to first, reading the causal posterior back and writing the acausal
 * posterior, the state probabilities and the MAP position into place. Each window is a span, so
 * the filter and smoother show on the timeline like the likelihood's blocks.
 */
import { join } from 'node:path';
import type { PosteriorMethod, PosteriorModel } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import type { PosteriorParameters } from '../../../shared/posteriorParameters';
import { AppError } from '../../../shared/errors';
import { interpolatePosition, type EngineProbe } from '../../engine';
import {
  AcausalSmoother, assembleLogLikelihood, buildStateSpace, CausalFilter, filterRowWork, gridDims, LocalPositionKernel, mapPosition, maskedPosterior, noSpikeLogLikelihood,
  posteriorMemoryEstimate, smoothRowWork, stateProbabilities, transitionBytes, type StateSpace,
} from '../../engine/posterior';
import { scaleWork } from '../../engine/model';
import { POSTERIOR_FILES, type PosteriorSummary } from '../../engineProtocol';
import { likelihoodArgmax, PositionErrors } from './positionErrors';
import { missingRows, placeGridOf } from './posteriorInputs';
import { RowFileReader, RowFileWriter } from '../runFiles';
import { StageMemory } from './stageMemory';

export interface PosteriorStageInputs {
  runDir: string;
  dataset: Dataset;
  model: PosteriorModel;
  method: PosteriorMethod;
  /** the model's parameters a lab changed; the rest take NLD's defaults */
  parameters?: PosteriorParameters;
  /** the non-local likelihood the decode wrote: T × P interior bins, float32 */
  likelihoodFile: string;
  /** the Local state's log likelihood per row (the detector only) */
  local?: Float64Array;
  rowsPerChunk: number;
  probe: EngineProbe;
  signal?: AbortSignal;
  /** fraction of the stage (filter then smoother) and a short label */
  onProgress: (fraction: number, detail: string) => void;
}

interface Windows {
  starts: number[];
  rows: number;
}

function windowsOf(rows: number, rowsPerChunk: number): Windows {
  const size = Math.max(1, rowsPerChunk);
  const starts: number[] = [];
  for (let s = 0; s < rows; s += size) starts.push(s);
  return { starts, rows };
}

function checkCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AppError('CANCELLED', 'the decode was cancelled during its posterior');
}

/** What the filter needs besides the non-local likelihood, for the whole recording's rows. */
interface StateEvidence {
  local?: Float32Array;
  noSpike?: Float32Array;
  missing?: Uint8Array;
  /** the multi-bin Local state's kernel, and the animal's position at every row it is taken at */
  kernel?: { of: LocalPositionKernel; positions: Float64Array; dims: number };
}

/** Decoded against true positions, where the data carry them: the likelihood's argmax and the posterior's MAP. */
interface Accuracy {
  likelihood?: PositionErrors;
  posterior?: PositionErrors;
}

function evidenceFor(space: StateSpace, inp: PosteriorStageInputs): StateEvidence {
  const { dataset } = inp;
  const evidence: StateEvidence = {};
  if (space.stateKinds.includes('local')) {
    if (!inp.local) throw new AppError('INTERNAL', 'the detector posterior needs the local likelihood');
    evidence.local = Float32Array.from(inp.local);
  }
  if (space.stateKinds.includes('noSpike')) {
    const spikes = dataset.electrodes.map((e) => e.decodingSpikeTimes ?? e.encodingSpikeTimes);
    evidence.noSpike = noSpikeLogLikelihood(dataset.time, spikes, space.noSpikeRate);
  }
  if (space.stateKinds.includes('spatialLocal')) {
    const dims = gridDims(space.grid);
    const positions = interpolatePosition(dataset.decodingPositionTime ?? dataset.positionTime, dataset.decodingPosition ?? dataset.position, dims, dataset.time);
    evidence.kernel = { of: new LocalPositionKernel(space.grid, space.interiorBins, space.localPositionStd ?? 0), positions, dims };
  }
  const missing = missingRows(dataset);
  if (missing) evidence.missing = missing;
  return evidence;
}

async function filterPass(
  space: StateSpace, inp: PosteriorStageInputs, w: Windows, evidence: StateEvidence, accuracy: Accuracy, memory: StageMemory,
): Promise<number> {
  const reader = await RowFileReader.open(inp.likelihoodFile);
  if (reader.rows !== w.rows || reader.cols !== space.nInteriorBins) {
    await reader.close();
    throw new AppError('INTERNAL', `${inp.likelihoodFile} is ${reader.rows} × ${reader.cols}, the posterior expects ${w.rows} × ${space.nInteriorBins}`);
  }
  const writer = await RowFileWriter.create(join(inp.runDir, POSTERIOR_FILES.causal), w.rows, space.nStateBins);
  const filter = new CausalFilter(space, inp.method);
  const n = space.nInteriorStateBins;
  // one buffer of each kind for every window (views of them for a shorter last one): the stage's memory is one window's
  memory.beforeAllocating();
  const kernelWidth = evidence.kernel ? space.nInteriorBins : 0;
  const buffers = windowBuffers(Math.min(inp.rowsPerChunk, w.rows), { nonLocal: space.nInteriorBins, ll: n, causal: n, masked: space.nStateBins, kernel: kernelWidth });
  try {
    for (const [i, start] of w.starts.entries()) {
      checkCancelled(inp.signal);
      const rows = Math.min(inp.rowsPerChunk, w.rows - start);
      await inp.probe.span('filter', async () => {
        const b = buffers(rows);
        const nonLocal = await reader.read(start, rows, b.nonLocal);
        refuseNaN(nonLocal, start, space.nInteriorBins, inp);
        accuracy.likelihood?.add(start, likelihoodArgmax(nonLocal, rows, inp.dataset.placeBinCenters, inp.dataset.positionDims));
        const parts = {
          nonLocal,
          ...(evidence.local ? { local: evidence.local.subarray(start, start + rows) } : {}),
          ...(evidence.noSpike ? { noSpike: evidence.noSpike.subarray(start, start + rows) } : {}),
          ...(evidence.kernel ? { localKernel: kernelWindow(evidence.kernel, start, rows, b.kernel) } : {}),
        };
        const ll = assembleLogLikelihood(space, rows, parts, evidence.missing?.subarray(start, start + rows), b.ll);
        filter.filterWindow(ll, rows, b.causal);
        const masked = maskedPosterior(space, b.causal, rows, b.masked);
        memory.sample();
        await writer.write(start, masked);
      }, { startRow: start, rows, states: n, work: scaleWork(filterRowWork(space, inp.method), rows) });
      inp.onProgress((0.5 * (i + 1)) / w.starts.length, `filter rows ${start + rows}/${w.rows}`);
    }
    await writer.finish();
  } catch (e) {
    await writer.abandon();
    throw e;
  } finally {
    await reader.close();
  }
  return filter.marginalLogLikelihood;
}

/**
 * A NaN in the likelihood would make every later row of the posterior NaN: the stage stops at the
 * first one and says where, and the likelihood file stays for a look. (−∞ is a valid log likelihood.)
 */
function refuseNaN(values: Float32Array, start: number, width: number, inp: PosteriorStageInputs): void {
  const at = values.findIndex((v) => Number.isNaN(v));
  if (at < 0) return;
  const row = start + Math.floor(at / width);
  const t = inp.dataset.time[row];
  throw new AppError('RUN_FAILED', `the likelihood is NaN at row ${row}${t === undefined ? '' : ` (t = ${t} s)`}, bin ${at % width}, so the posterior cannot be computed; ` +
    `the likelihood was kept in ${inp.likelihoodFile}. Decode again with --strategy reference or a smaller --memory-budget-mb, and report the data if it persists.`);
}

function kernelWindow(kernel: NonNullable<StateEvidence['kernel']>, start: number, rows: number, out: Float32Array): Float32Array {
  return kernel.of.rows(kernel.positions.subarray(start * kernel.dims, (start + rows) * kernel.dims), rows, out);
}

/**
 * Float32 buffers of `maxRows` rows for each named width, allocated once; `(rows)` gives views of
 * the first `rows` rows of each.
 */
type Buffer32 = Float32Array<ArrayBuffer>;

function windowBuffers<K extends string>(maxRows: number, widths: Record<K, number>): (rows: number) => Record<K, Buffer32> {
  const whole = Object.fromEntries(Object.entries<number>(widths).map(([k, width]) => [k, new Float32Array(maxRows * width)])) as Record<K, Buffer32>;
  return (rows) => Object.fromEntries(Object.entries<number>(widths).map(([k, width]) => [k, whole[k as K].subarray(0, rows * width)])) as Record<K, Buffer32>;
}

/** The interior state bins of masked rows (NLD's column order, NaN where not interior). */
function interiorOf(space: StateSpace, masked: Float32Array, rows: number, out: Float32Array): Float32Array {
  const n = space.nInteriorStateBins;
  const cols = space.interiorStateBinColumn;
  for (let t = 0; t < rows; t++) {
    const from = t * space.nStateBins;
    for (let k = 0; k < n; k++) out[t * n + k] = masked[from + cols[k]!]!;
  }
  return out;
}

interface SmootherOutputs {
  acausal: RowFileWriter;
  states: RowFileWriter;
  map: RowFileWriter;
}

async function openOutputs(runDir: string, space: StateSpace, rows: number): Promise<SmootherOutputs> {
  const acausal = await RowFileWriter.create(join(runDir, POSTERIOR_FILES.acausal), rows, space.nStateBins);
  const states = await RowFileWriter.create(join(runDir, POSTERIOR_FILES.stateProbabilities), rows, space.stateNames.length);
  const map = await RowFileWriter.create(join(runDir, POSTERIOR_FILES.mapPosition), rows, gridDims(space.grid));
  return { acausal, states, map };
}

async function smoothPass(space: StateSpace, inp: PosteriorStageInputs, w: Windows, accuracy: Accuracy, memory: StageMemory): Promise<void> {
  const reader = await RowFileReader.open(join(inp.runDir, POSTERIOR_FILES.causal));
  const out = await openOutputs(inp.runDir, space, w.rows);
  const smoother = new AcausalSmoother(space, inp.method);
  const n = space.nInteriorStateBins;
  memory.beforeAllocating();
  const buffers = windowBuffers(Math.min(inp.rowsPerChunk, w.rows), {
    read: space.nStateBins, causal: n, acausal: n, masked: space.nStateBins, states: space.stateNames.length, map: gridDims(space.grid),
  });
  try {
    for (let i = w.starts.length - 1; i >= 0; i--) {
      checkCancelled(inp.signal);
      const start = w.starts[i]!;
      const rows = Math.min(inp.rowsPerChunk, w.rows - start);
      await inp.probe.span('smooth', async () => {
        const b = buffers(rows);
        const causal = interiorOf(space, await reader.read(start, rows, b.read), rows, b.causal);
        smoother.smoothWindow(causal, rows, b.acausal);
        const masked = maskedPosterior(space, b.acausal, rows, b.masked);
        const states = stateProbabilities(space, b.acausal, rows, b.states);
        const map = mapPosition(space, b.acausal, rows);
        b.map.set(map);
        memory.sample();
        await out.acausal.write(start, masked);
        await out.states.write(start, states);
        accuracy.posterior?.add(start, map);
        await out.map.write(start, b.map);
      }, { startRow: start, rows, states: space.nInteriorStateBins, work: scaleWork(smoothRowWork(space, inp.method), rows) });
      inp.onProgress(0.5 + (0.5 * (w.starts.length - i)) / w.starts.length, `smooth rows ${start}/${w.rows}`);
    }
    for (const f of [out.acausal, out.states, out.map]) await f.finish();
  } catch (e) {
    for (const f of [out.acausal, out.states, out.map]) await f.abandon();
    throw e;
  } finally {
    await reader.close();
  }
}

function estimateOf(space: StateSpace, inp: PosteriorStageInputs, rows: number): { estimatedBytes: number; formula: string } {
  const { bytes, formula } = posteriorMemoryEstimate(space, inp.method, inp.rowsPerChunk, rows);
  return { estimatedBytes: bytes, formula };
}

/** Filter, then smoother, over the decode's rows; what they made is in posterior/ of the run folder. */
export async function decodePosterior(inp: PosteriorStageInputs): Promise<PosteriorSummary> {
  const memory = new StageMemory();
  const space = buildStateSpace(inp.model, placeGridOf(inp.dataset), inp.parameters);
  const w = windowsOf(inp.dataset.time.length, inp.rowsPerChunk);
  const evidence = evidenceFor(space, inp);
  const accuracy: Accuracy = PositionErrors.of(inp.dataset, ['likelihood', 'posterior'] as const) ?? {};
  const t0 = performance.now();
  const marginalLogLikelihood = await filterPass(space, inp, w, evidence, accuracy, memory);
  const t1 = performance.now();
  // the filter's window buffers are garbage now: collected before the smoother allocates its own, the
  // stage holds one window at a time, as the estimate says (and not both passes' until the collector runs)
  StageMemory.collect();
  await smoothPass(space, inp, w, accuracy, memory);
  const n = space.nInteriorStateBins;
  const decodedAccuracy = accuracy.likelihood && accuracy.posterior
    ? { likelihood: accuracy.likelihood.summary(), posterior: accuracy.posterior.summary() }
    : undefined;
  return {
    ...(decodedAccuracy ? { accuracy: decodedAccuracy } : {}),
    model: inp.model,
    method: inp.method,
    states: space.stateNames,
    rows: w.rows,
    nStateBins: space.nStateBins,
    nInteriorStateBins: n,
    marginalLogLikelihood,
    filterMs: t1 - t0,
    smoothMs: performance.now() - t1,
    denseTransitionBytes: transitionBytes(space, 'dense'),
    parameters: {
      movementVar: space.movementVar, noSpikeRate: space.noSpikeRate, discreteTransition: space.discreteTransition,
      ...(space.localPositionStd !== undefined ? { localPositionStd: space.localPositionStd } : {}),
    },
    memory: { ...estimateOf(space, inp, w.rows), measuredBytes: memory.measuredBytes },
    files: POSTERIOR_FILES,
  };
}
