/**
 * Non-local predict over windows of output rows, for recordings whose (T × P) likelihood should
 * not be held at once: each window's rows are computed and handed to the caller (to write to
 * disk) before the next window starts. A window [r0, r1) decodes on the grid t_r0..t_r1 with the
 * spikes t_r0 ≤ u < t_r1, which maps every spike to exactly the row the full grid gives it; the
 * extra edge row is dropped. The last window keeps the grid's end, and is never a single row
 * (a lone last row would take spikes at u = t_{T−1}, which belong to row T−2).
 */
import type { StrategyChoice, StrategyName } from '../../shared/config';
import type { Dataset } from '../../shared/dataset';
import type { EncodingModel } from './fit';
import { predictNonlocal } from './predict';
import type { StrategyOptions } from './model';
import { NULL_PROBE, type EngineProbe } from './types';

export interface WindowSummary {
  nTime: number;
  nBins: number;
  windows: number;
  /** the strategy each electrode ran, from the first window that decoded it */
  resolved: StrategyName[];
  flooredTerms: number;
  totalTerms: number;
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

function sortedDecodingSpikes(dataset: Dataset): SortedSpikes[] {
  return dataset.electrodes.map((el) => {
    const n = el.decodingSpikeTimes.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => el.decodingSpikeTimes[a]! - el.decodingSpikeTimes[b]!);
    const d = el.nFeatures;
    const times = new Float64Array(n);
    const features = new Float64Array(n * d);
    order.forEach((src, dst) => {
      times[dst] = el.decodingSpikeTimes[src]!;
      features.set(el.decodingFeatures.subarray(src * d, src * d + d), dst * d);
    });
    return { times, features };
  });
}

/** first index with times[i] ≥ t (strict: > t) in a sorted array */
function lowerBound(times: Float64Array, t: number, strict = false): number {
  let a = 0;
  let b = times.length;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (strict ? times[m]! <= t : times[m]! < t) a = m + 1;
    else b = m;
  }
  return a;
}

export async function predictNonlocalWindows(
  model: EncodingModel,
  dataset: Dataset,
  strategy: StrategyChoice,
  options: StrategyOptions,
  rowsPerWindow: number,
  onWindow: (startRow: number, rows: number, values: Float64Array) => Promise<void> | void,
  probe: EngineProbe = NULL_PROBE,
): Promise<WindowSummary> {
  const time = dataset.time;
  const nTime = time.length;
  const nBins = model.nBins;
  const spikes = sortedDecodingSpikes(dataset);
  const bounds = windowBounds(nTime, rowsPerWindow);
  const summary: WindowSummary = { nTime, nBins, windows: bounds.length, resolved: [], flooredTerms: 0, totalTerms: 0 };
  for (let w = 0; w < bounds.length; w++) {
    const [r0, r1] = bounds[w]!;
    const isLast = r1 === nTime;
    const grid = time.subarray(r0, isLast ? nTime : r1 + 1);
    const lo = time[r0]!;
    const electrodes = dataset.electrodes.map((el, e) => {
      const s = spikes[e]!;
      const a = lowerBound(s.times, lo);
      const b = isLast ? lowerBound(s.times, time[nTime - 1]!, true) : lowerBound(s.times, time[r1]!);
      const d = el.nFeatures;
      return { ...el, decodingSpikeTimes: s.times.subarray(a, b), decodingFeatures: s.features.subarray(a * d, b * d) };
    });
    const result = await probe.span(
      `window ${w}`,
      () => predictNonlocal(model, { ...dataset, time: grid, electrodes }, strategy, options, probe),
      { rows: r1 - r0, startRow: r0 },
    );
    result.resolved.forEach((s, e) => {
      summary.resolved[e] ??= s;
    });
    result.floorShare.forEach((share, e) => {
      if (Number.isFinite(share)) {
        summary.flooredTerms += share * result.nTerms[e]!;
        summary.totalTerms += result.nTerms[e]!;
      }
    });
    await onWindow(r0, r1 - r0, result.logLikelihood.subarray(0, (r1 - r0) * nBins));
    probe.progress(r1 / nTime, `rows ${r1}/${nTime}`);
  }
  return summary;
}
