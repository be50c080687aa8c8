/**
 * Rules that look at a whole assembled dataset rather than one array, shared by the npz and NWB
 * loaders: clocks (E032).
 */
import type { Dataset } from '../../shared/dataset';
import { num, type Findings } from './findings';
import { finiteRange } from './scan';

/** E032: the encoding spikes and the position samples must share a clock. */
export function checkOverlap(f: Findings, ds: Dataset, positionKey = 'position_time'): void {
  const pos = finiteRange(ds.positionTime);
  let lo = Infinity;
  let hi = -Infinity;
  for (const e of ds.electrodes) {
    const r = finiteRange(e.encodingSpikeTimes);
    if (r) {
      lo = Math.min(lo, r[0]);
      hi = Math.max(hi, r[1]);
    }
  }
  if (!pos || lo > hi) return;
  if (hi < pos[0] || lo > pos[1]) {
    f.error('E032', `Spike times (${num(lo)}–${num(hi)} s) and ${positionKey} (${num(pos[0])}–${num(pos[1])} s) do not overlap; they appear to use different clocks.`,
      { key: positionKey });
  }
}

export interface DatasetContext {
  /** the key or path the position times came from, for messages */
  positionKey: string;
}

/** Every whole-dataset rule, in one pass over the assembled arrays. */
export function checkDataset(f: Findings, ds: Dataset, ctx: DatasetContext): void {
  checkOverlap(f, ds, ctx.positionKey);
}
