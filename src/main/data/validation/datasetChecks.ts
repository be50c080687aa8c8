/**
 * Rules that look at a whole assembled dataset rather than one array, shared by the npz and NWB
 * loaders (data-format.md §6c): clocks (E032), feature counts and scale (W024, W034), decoding bins
 * (W051–W053), track graph (W015), the memory estimate (I080) and epoch times (I042).
 */
import type { Dataset } from '../../../shared/dataset';
import { formatBytes } from '../../../shared/format';
import { count, num, pct, type ValidationFindings } from './validationFindings';
import { finiteRange } from './scan';

/** Volts: extracellular spikes are 20–1000 µV, so marks this small are volts */
const VOLTS_BELOW = 1e-2;
/** integer marks this large are raw ADC counts */
const ADC_ABOVE = 1000;
const BIN_CV_WARN = 0.05;
const BIN_MIN_S = 0.5e-3;
const BIN_MAX_S = 50e-3;
/** position times at or above this (≈ 1973) are Unix-epoch seconds */
const EPOCH_FROM_S = 1e8;
const EPOCH_TO_S = 4.2e9;

/** E032: the encoding spikes and the position samples must share a clock. */
function checkOverlap(f: ValidationFindings, ds: Dataset, positionKey = 'position_time'): boolean {
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
  if (!pos || lo > hi) return true;
  if (hi < pos[0] || lo > pos[1]) {
    f.error('E032', `Spike times (${num(lo)}–${num(hi)} s) and ${positionKey} (${num(pos[0])}–${num(pos[1])} s) do not overlap; they appear to use different clocks.`,
      { key: positionKey });
    return false;
  }
  return true;
}

/** W024: feature counts that differ between electrodes (stereotrodes beside tetrodes) */
function checkFeatureCounts(f: ValidationFindings, ds: Dataset): void {
  const byCount = new Map<number, string[]>();
  for (const e of ds.electrodes) byCount.set(e.nFeatures, [...(byCount.get(e.nFeatures) ?? []), e.name]);
  if (byCount.size < 2) return;
  const parts = [...byCount].sort((a, b) => b[0] - a[0]).map(([n, names]) => `${names.slice(0, 3).join(', ')}${names.length > 3 ? ` (+${names.length - 3})` : ''} = ${n}`);
  f.warn('W024', `Feature counts differ between electrodes: ${parts.join('; ')}. Decoding treats each electrode independently, with its own mark kernel.`,
    { electrode: ds.electrodes[0]!.name });
}

/** W034: marks that look like volts or like raw ADC counts, per electrode */
function checkFeatureScale(f: ValidationFindings, ds: Dataset): void {
  for (const e of ds.electrodes) {
    let maxAbs = 0;
    let integers = true;
    for (const v of e.encodingFeatures) {
      if (!Number.isFinite(v)) continue;
      maxAbs = Math.max(maxAbs, Math.abs(v));
      if (integers && !Number.isInteger(v)) integers = false;
    }
    if (e.encodingFeatures.length === 0 || maxAbs === 0) continue;
    if (maxAbs < VOLTS_BELOW) {
      f.warn('W034', `Features on '${e.name}' look like volts (max abs value ${num(maxAbs)}). The default mark bandwidth assumes µV.`, { electrode: e.name, fix: '×1e6' });
    } else if (integers && maxAbs > ADC_ABOVE) {
      f.warn('W034', `Features on '${e.name}' look like raw ADC counts (integers up to ${num(maxAbs)}). The default mark bandwidth assumes µV; scale by the acquisition system's µV per bit.`,
        { electrode: e.name, fix: '× µV per bit' });
    }
  }
}

/** W051–W053: irregular bins, bins outside the data, unusual bin width */
function checkBins(f: ValidationFindings, ds: Dataset, timeKey: string): void {
  const t = ds.time;
  if (t.length < 2) return;
  const widths = Array.from(t.subarray(1), (v, i) => v - t[i]!);
  const sorted = [...widths].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const mean = widths.reduce((s, w) => s + w, 0) / widths.length;
  const sd = Math.sqrt(widths.reduce((s, w) => s + (w - mean) ** 2, 0) / widths.length);
  if (mean > 0 && sd / mean > BIN_CV_WARN) {
    f.warn('W051', `Decoding bin widths ('${timeKey}') range from ${num(sorted[0]! * 1000)} to ${num(sorted[sorted.length - 1]! * 1000)} ms (CV ${(100 * sd / mean).toFixed(0)} %).`, { key: timeKey });
  }
  if (median < BIN_MIN_S || median > BIN_MAX_S) {
    const side = median < BIN_MIN_S ? '< 0.5 ms' : '> 50 ms';
    f.warn('W053', `Median decoding bin ('${timeKey}') is ${num(median * 1000)} ms (${side}); is the unit right?`, { key: timeKey });
  }
  const ranges = [finiteRange(ds.decodingPositionTime ?? ds.positionTime), ...ds.electrodes.map((e) => finiteRange(e.decodingSpikeTimes))].filter((r): r is [number, number] => r !== null);
  if (ranges.length === 0) return;
  const lo = Math.min(...ranges.map((r) => r[0]));
  const hi = Math.max(...ranges.map((r) => r[1]));
  let outside = 0;
  let first = -1;
  for (let i = 0; i < t.length; i++) {
    if (t[i]! < lo || t[i]! > hi) {
      outside++;
      if (first < 0) first = i;
    }
  }
  if (outside > 0) {
    f.warn('W052', `${count(outside)} decoding bins (${pct(outside, t.length)}) in '${timeKey}' lie outside the position/spike coverage [${num(lo)}, ${num(hi)}] s (first at index ${count(first)}: ${num(t[first]!)} s).`,
      { key: timeKey, index: first });
  }
}

/** I080: what the loaded arrays take in memory on the host */
function memoryEstimate(f: ValidationFindings, ds: Dataset): void {
  let spikes = 0;
  let bytes = 0;
  for (const e of ds.electrodes) {
    const shared = e.decodingSpikeTimes === e.encodingSpikeTimes;
    const n = e.encodingSpikeTimes.length + (shared ? 0 : e.decodingSpikeTimes.length);
    spikes += n;
    bytes += n * (1 + e.nFeatures) * 8;
  }
  const q = ds.positionDims;
  bytes += (ds.positionTime.length * (1 + q) + (ds.decodingPositionTime?.length ?? 0) * (1 + q) + ds.time.length + ds.placeBinCenters.length) * 8;
  const fs = [...new Set(ds.electrodes.map((e) => e.nFeatures))].sort((a, b) => a - b);
  const fText = fs.length === 1 ? `${fs[0]}` : `${fs[0]}–${fs[fs.length - 1]}`;
  const spikeText = spikes >= 1e6 ? `${(spikes / 1e6).toFixed(1)} M` : count(spikes);
  f.info('I080', `${count(ds.electrodes.length)} electrodes, ${spikeText} spikes, F = ${fText}, ${count(ds.positionTime.length)} position samples, ${count(ds.time.length)} decoding bins → ~${formatBytes(bytes)} in memory (float64 times and marks on the host; the engine copies marks to float32 on the device).`);
}

/** I042: epoch-second clocks are shifted to start near 0, so that float32 copies keep their precision */
function subtractEpoch(f: ValidationFindings, ds: Dataset, positionKey: string): void {
  const t0 = ds.positionTime.find((v) => Number.isFinite(v));
  if (t0 === undefined || t0 < EPOCH_FROM_S || t0 > EPOCH_TO_S) return;
  const date = new Date(t0 * 1000).toISOString().slice(0, 10);
  f.info('I042', `Times look like Unix-epoch seconds (≈${t0.toExponential(2)}, ${date}). They are kept as float64; t0 = ${t0} (the first ${positionKey} sample) is subtracted internally.`,
    { key: positionKey });
  const shifted = new Map<Float64Array, Float64Array>();
  const shift = (a: Float64Array): Float64Array => {
    let out = shifted.get(a);
    if (!out) {
      out = a.map((v) => v - t0);
      shifted.set(a, out);
    }
    return out;
  };
  ds.positionTime = shift(ds.positionTime);
  ds.time = shift(ds.time);
  if (ds.decodingPositionTime) ds.decodingPositionTime = shift(ds.decodingPositionTime);
  for (const e of ds.electrodes) {
    e.encodingSpikeTimes = shift(e.encodingSpikeTimes);
    e.decodingSpikeTimes = shift(e.decodingSpikeTimes);
  }
  ds.notes.push(`epoch clock: t0 = ${t0} s subtracted from every time`);
}

export interface DatasetContext {
  /** the key or path the position times came from, for messages */
  positionKey: string;
  /** the key the decoding bins came from */
  timeKey: string;
  /** the file defines a track graph (W015 when position is 1-D) */
  trackGraphKey?: string;
}

/** Every whole-dataset rule; runs after the arrays passed their own checks. */
export function checkDataset(f: ValidationFindings, ds: Dataset, ctx: DatasetContext): void {
  if (!checkOverlap(f, ds, ctx.positionKey)) return;
  if (ctx.trackGraphKey && ds.positionDims === 1) {
    f.warn('W015', `A track graph is defined ('${ctx.trackGraphKey}') but position is 1-D. Linearised input cannot be re-linearised; supply raw (x, y).`, { key: ctx.trackGraphKey });
  }
  checkFeatureCounts(f, ds);
  checkFeatureScale(f, ds);
  checkBins(f, ds, ctx.timeKey);
  memoryEstimate(f, ds);
  subtractEpoch(f, ds, ctx.positionKey);
}
