/**
 * Non-local predict over windows of output rows, for recordings whose (T × P) likelihood should
 * not be held at once: each window's rows are computed and handed to the caller (to write to
 * disk) before the next batch of windows (DECODE_BATCH_BYTES of likelihood) starts. A window [r0, r1) decodes on the grid t_r0..t_r1 with the
 * spikes t_r0 ≤ u < t_r1, which maps every spike to exactly the row the full grid gives it; the
 * extra edge row is dropped. The last window keeps the grid's end, and is never a single row
 * (a lone last row would take spikes at u = t_{T−1}, which belong to row T−2).
 */
import type { StrategyChoice } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { lowerBound, upperBound } from '../../../shared/sortedSearch';
import { WINDOWS_SPAN } from '../../../shared/traceSpans';
import type { EncodingModel } from '../fit';
import { DEFAULT_MEMORY_BUDGET_BYTES, KEPT_KERNEL_BUDGET_SHARE, throwIfCancelled } from '../model';
import { NULL_PROBE, type EngineProbe, type NonlocalResult, type PredictOptions, type WindowSummary } from '../types';
import { inThreadExecutor, type NonlocalExecutor } from './executor';
import { predictNonlocalWith } from './predict';

/**
 * The most likelihood (float64 bytes) one predict computes at once: consecutive windows are decoded
 * together up to this much, then handed to the caller window by window. Each predict call waits for
 * its slowest worker and rebuilds the position factors the kept budget cannot hold, so small
 * windows cost: a production window (30 000 rows × 100 bins, 2 workers) decoded in 28.0 s in
 * windows of 2 000 rows, 20.8 s in windows of 10 000 and 19.4 s at once.
 */
export const DECODE_BATCH_BYTES = 32 * 1024 * 1024;

/** Consecutive windows in batches of at most batchBytes of likelihood (one window at least): [first, end) indices. */
export function windowBatches(bounds: readonly [number, number][], nBins: number, batchBytes = DECODE_BATCH_BYTES): [number, number][] {
  const maxRows = Math.max(1, Math.floor(batchBytes / (Math.max(1, nBins) * 8)));
  const out: [number, number][] = [];
  for (let w = 0; w < bounds.length;) {
    let end = w + 1;
    while (end < bounds.length && bounds[end]![1] - bounds[w]![0] <= maxRows) end++;
    out.push([w, end]);
    w = end;
  }
  return out;
}

export function windowBounds(nTime: number, rowsPerWindow: number): [number, number][] {
  const k = Math.max(2, Math.floor(rowsPerWindow));
  const out: [number, number][] = [];
  for (let r0 = 0; r0 < nTime; r0 += k) out.push([r0, Math.min(nTime, r0 + k)]);
  const last = out[out.length - 1];
  if (last && out.length > 1 && last[1] - last[0] < 2) {
    out.pop();
    out[out.length - 1]![1] = nTime;
  }
  return out;
}

interface SortedSpikes {
  times: Float64Array;
  features: Float64Array;
}

/** Whether every time is at or after the one before (a NaN anywhere is not in order). */
function inOrder(times: Float64Array): boolean {
  for (let i = 1; i < times.length; i++) if (!(times[i - 1]! <= times[i]!)) return false;
  return true;
}

/**
 * Each electrode's decoding spikes in time order. Recordings store them so: those are used as
 * they are (sorting 10⁵ spikes' indices with a comparator and copying each mark took longer than
 * a window of the production decode); only spikes out of order are sorted and copied.
 */
function sortedDecodingSpikes(dataset: Dataset): SortedSpikes[] {
  return dataset.electrodes.map((el) => {
    if (inOrder(el.decodingSpikeTimes)) return { times: el.decodingSpikeTimes, features: el.decodingFeatures };
    const n = el.decodingSpikeTimes.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => el.decodingSpikeTimes[a]! - el.decodingSpikeTimes[b]!);
    const d = el.nFeatures;
    const times = new Float64Array(n);
    const features = new Float64Array(n * d);
    for (let dst = 0; dst < n; dst++) {
      const src = order[dst]!;
      times[dst] = el.decodingSpikeTimes[src]!;
      for (let j = 0; j < d; j++) features[dst * d + j] = el.decodingFeatures[src * d + j]!;
    }
    return { times, features };
  });
}

/** The dataset cut to window [r0, r1): its grid (plus the edge row) and the spikes that fall in it. */
function windowDataset(dataset: Dataset, spikes: SortedSpikes[], r0: number, r1: number): Dataset {
  const time = dataset.time;
  const nTime = time.length;
  const isLast = r1 === nTime;
  const electrodes = dataset.electrodes.map((el, e) => {
    const s = spikes[e]!;
    const a = lowerBound(s.times, time[r0]!);
    // the last window keeps spikes at u = t_{T−1}; the others stop before their edge row
    const b = isLast ? upperBound(s.times, time[nTime - 1]!) : lowerBound(s.times, time[r1]!);
    const d = el.nFeatures;
    return { ...el, decodingSpikeTimes: s.times.subarray(a, b), decodingFeatures: s.features.subarray(a * d, b * d) };
  });
  return { ...dataset, time: time.subarray(r0, isLast ? nTime : r1 + 1), electrodes };
}

/** The caller's probe with progress mapped from one window's share onto the whole grid. */
function windowProbe(probe: EngineProbe, r0: number, r1: number, nTime: number): EngineProbe {
  return {
    span: (name, fn, args) => probe.span(name, fn, args),
    counter: (name, values) => probe.counter(name, values),
    instant: (name, args) => probe.instant(name, args),
    // rows r0 … r1 are decoded together (a batch of windows): name the batch, not its last row as if done
    progress: (fraction) => probe.progress((r0 + fraction * (r1 - r0)) / nTime, `rows ${r0}–${r1} of ${nTime}`),
  };
}

function addToSummary(summary: WindowSummary, result: NonlocalResult): void {
  result.resolved.forEach((s, e) => {
    summary.resolved[e] ??= s;
    const reason = result.resolvedReasons?.[e];
    if (reason) summary.resolvedReasons[e] ??= reason;
  });
  result.floorShare.forEach((share, e) => {
    if (Number.isFinite(share)) {
      summary.flooredTerms += share * result.nTerms[e]!;
      summary.totalTerms += result.nTerms[e]!;
    }
  });
}

/** Receives a window's rows; `values` is a view that a later batch reuses, so what is kept is copied. */
export type WindowRows = (startRow: number, rows: number, values: Float64Array) => Promise<void> | void;

/** The windowed predict with the electrodes `executor` holds: each batch of windows planned and run as one predict. */
export async function predictNonlocalWindowsWith(
  executor: NonlocalExecutor,
  dataset: Dataset,
  strategy: StrategyChoice,
  options: PredictOptions,
  rowsPerWindow: number,
  onWindow: WindowRows,
  probe: EngineProbe = NULL_PROBE,
): Promise<WindowSummary> {
  // the first batch's time counts from here: sorting the spikes is one of the decode's one-off costs
  let batchStartMs = performance.now();
  const nTime = dataset.time.length;
  const nBins = dataset.placeBinCenters.length / dataset.positionDims;
  const spikes = sortedDecodingSpikes(dataset);
  const bounds = windowBounds(nTime, rowsPerWindow);
  const keptBudget = (options.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES) * KEPT_KERNEL_BUDGET_SHARE;
  const summary: WindowSummary = { nTime, nBins, windows: bounds.length, resolved: [], resolvedReasons: [], flooredTerms: 0, totalTerms: 0, batches: [] };
  for (const [first, end] of windowBatches(bounds, nBins, options.windowBatchBytes)) {
    throwIfCancelled(options.signal);
    const [r0, r1] = [bounds[first]![0], bounds[end - 1]![1]];
    const result = await probe.span(
      WINDOWS_SPAN,
      () => predictNonlocalWith(
        executor, windowDataset(dataset, spikes, r0, r1), strategy,
        { ...options, keepPositionKernels: true, positionKernelBudgetBytes: options.positionKernelBudgetBytes ?? keptBudget }, windowProbe(probe, r0, r1, nTime),
      ),
      { firstWindow: first, lastWindow: end - 1, windows: end - first, rows: r1 - r0, startRow: r0 },
    );
    addToSummary(summary, result);
    for (let w = first; w < end; w++) {
      const [w0, w1] = bounds[w]!;
      await onWindow(w0, w1 - w0, result.logLikelihood.subarray((w0 - r0) * nBins, (w1 - r0) * nBins));
      probe.progress(w1 / nTime, `rows ${w1}/${nTime} written`);
    }
    const nowMs = performance.now();
    summary.batches.push({ rows: r1 - r0, ms: nowMs - batchStartMs });
    batchStartMs = nowMs;
    // onWindow has taken what it keeps (it is handed a view): the next batch reuses the memory
    result.release?.();
  }
  return summary;
}

/** The engine's own windowed predict, on this thread. */
export function predictNonlocalWindows(
  model: EncodingModel, dataset: Dataset, strategy: StrategyChoice, options: PredictOptions, rowsPerWindow: number, onWindow: WindowRows,
  probe: EngineProbe = NULL_PROBE,
): Promise<WindowSummary> {
  return predictNonlocalWindowsWith(inThreadExecutor(model), dataset, strategy, options, rowsPerWindow, onWindow, probe);
}
