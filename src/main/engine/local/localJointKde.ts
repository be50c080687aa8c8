/**
 * The local likelihood's joint KDE at each decoding spike, J_k = (1/E) Σ_i K([x_k, m_k] − [ξ_i, y_i]),
 * over a window of the encoding spikes: with one-dimensional positions, a spike at x_k takes only
 * the encoding spikes within WINDOW_WIDTHS position kernel widths of it. Every encoding spike left
 * out is farther than d_k widths (d_k ≥ WINDOW_WIDTHS, the spike's distance to the window's edge), so
 * its joint kernel is at most the kernel's peak times e^(−d_k²/2) (the mark factor is at most 1),
 * and all of them together at most (E − w)/E · peak · e^(−d_k²/2). A spike keeps its window's value
 * when that is below WINDOW_RELATIVE_ERROR of it, or when even with it the term stays under the
 * likelihood's EPS floor (the same floored term either way); any other spike is evaluated over every
 * encoding spike. On a 200 cm track with a 6 cm kernel a window holds about half the spikes. On the
 * wasm backend the window's sum takes one pass (logKdeBelowPeak), whose dropped terms join the bound.
 */
import { EPS } from '../model';
import { logNormaliser } from '../hostMath';
import { BELOW_PEAK_DROPPED, logKde, logKdeBelowPeak } from '../gaussian';

/** Position kernel widths either side of a block's spikes that its window takes. */
export const WINDOW_WIDTHS = 7.5;
/** The largest share of J a window may leave out. */
export const WINDOW_RELATIVE_ERROR = 1e-6;
/** A block's spikes lie within this many position kernel widths of each other. */
const BLOCK_SPAN_WIDTHS = 4;
/** Decoding spikes per block at most (one logKde call each). */
const BLOCK_SPIKES = 1024;
/** Below this many encoding spikes windows save too little to be worth it. */
const MIN_WINDOWED_ENCODING = 2048;

export interface JointInputs {
  /** encoding positions (E × q) and marks (E × D), row-major */
  encPositions: Float64Array;
  encFeatures: Float64Array;
  nEnc: number;
  /** the spikes' interpolated positions (S × q) and marks (S × D) */
  positions: Float64Array;
  features: Float64Array;
  nSpikes: number;
  q: number;
  nFeatures: number;
  positionStd: number[];
  waveformStd: number[];
  /** per spike, the J below which its term is floored: EPS·π_k/μ (Infinity where π_k is 0: the term is 0) */
  floorBelow: Float64Array;
}

export interface JointResult {
  /** log J_k */
  log: Float64Array;
  /** encoding spikes × decoding spikes evaluated */
  pairs: number;
  /** spikes evaluated over every encoding spike because their window's bound did not hold */
  fullSpikes: number;
}

function joint(positions: Float64Array, q: number, features: Float64Array, d: number, rows: ArrayLike<number>): Float64Array {
  const out = new Float64Array(rows.length * (q + d));
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r]!;
    for (let j = 0; j < q; j++) out[r * (q + d) + j] = positions[i * q + j]!;
    for (let j = 0; j < d; j++) out[r * (q + d) + q + j] = features[i * d + j]!;
  }
  return out;
}

/** The first index of sorted `values` at or above x. */
function lowerBound(values: Float64Array, x: number): number {
  let [lo, hi] = [0, values.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** log(e^a + e^b) */
function logAdd(a: number, b: number): number {
  const top = Math.max(a, b);
  return top === -Infinity ? -Infinity : top + Math.log(Math.exp(a - top) + Math.exp(b - top));
}

function allFinite(values: Float64Array): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) return false;
  return true;
}

export async function jointLogKdeAtSpikes(inp: JointInputs): Promise<JointResult> {
  const { nEnc, nSpikes, q, nFeatures } = inp;
  const std = [...inp.positionStd, ...inp.waveformStd];
  const everySpike = Array.from({ length: nSpikes }, (_, k) => k);
  const allEncoding = Array.from({ length: nEnc }, (_, i) => i);
  const encJoint = (rows: ArrayLike<number>) => joint(inp.encPositions, q, inp.encFeatures, nFeatures, rows);
  const spikeJoint = (rows: ArrayLike<number>) => joint(inp.positions, q, inp.features, nFeatures, rows);
  if (q !== 1 || nEnc < MIN_WINDOWED_ENCODING || !allFinite(inp.encPositions)) {
    return { log: await logKde(encJoint(allEncoding), spikeJoint(everySpike), q + nFeatures, std), pairs: nEnc * nSpikes, fullSpikes: nSpikes };
  }
  const sigma = inp.positionStd[0]!;
  const encOrder = [...allEncoding].sort((a, b) => inp.encPositions[a]! - inp.encPositions[b]!);
  const encSorted = Float64Array.from(encOrder, (i) => inp.encPositions[i]!);
  const encSortedJoint = encJoint(encOrder);
  const width = q + nFeatures;
  const logPeak = logNormaliser(std);
  const log = new Float64Array(nSpikes);
  const full: number[] = [];
  let pairs = 0;

  // NaN positions (a gap in the track) take the full sum, which makes them NaN as the reference does
  const finite = everySpike.filter((k) => Number.isFinite(inp.positions[k]!));
  for (const k of everySpike) if (!Number.isFinite(inp.positions[k]!)) full.push(k);
  finite.sort((a, b) => inp.positions[a]! - inp.positions[b]!);
  for (let start = 0; start < finite.length;) {
    const first = inp.positions[finite[start]!]!;
    let end = start + 1;
    while (end < finite.length && end - start < BLOCK_SPIKES && inp.positions[finite[end]!]! - first <= BLOCK_SPAN_WIDTHS * sigma) end++;
    const block = finite.slice(start, end);
    const last = inp.positions[finite[end - 1]!]!;
    const [lo, hi] = [first - WINDOW_WIDTHS * sigma, last + WINDOW_WIDTHS * sigma];
    const i0 = lowerBound(encSorted, lo);
    const i1 = lowerBound(encSorted, hi + Number.EPSILON * Math.abs(hi));
    const w = i1 - i0;
    pairs += w * block.length;
    const windowSamples = encSortedJoint.subarray(i0 * width, i1 * width);
    const points = spikeJoint(block);
    const onePass = w > 0 ? await logKdeBelowPeak(windowSamples, points, width, std) : null;
    const near = onePass ?? (w > 0 ? await logKde(windowSamples, points, width, std) : new Float64Array(block.length).fill(-Infinity));
    // the one-pass sums dropped terms below 2^−63 of the peak: at most w of them
    const logDropped = onePass ? Math.log(w / nEnc) + logPeak + Math.log(BELOW_PEAK_DROPPED) : -Infinity;
    const logShare = Math.log(w / nEnc);
    const logOutShare = Math.log((nEnc - w) / nEnc);
    block.forEach((k, b) => {
      const x = inp.positions[k]!;
      const d = Math.min(x - lo, hi - x) / sigma;
      const logNear = near[b]! + logShare;
      const logFar = logAdd(logOutShare + logPeak - 0.5 * d * d, logDropped);
      const floored = Math.exp(logNear) + Math.exp(logFar) < inp.floorBelow[k]!;
      if (logFar - logNear <= Math.log(WINDOW_RELATIVE_ERROR) || floored) log[k] = logNear;
      else full.push(k);
    });
    start = end;
  }
  if (full.length > 0) {
    // every encoding spike, in the position order already laid out for the windows
    const values = await logKde(encSortedJoint, spikeJoint(full), width, std);
    full.forEach((k, r) => (log[k] = values[r]!));
    pairs += full.length * nEnc;
  }
  return { log, pairs, fullSpikes: full.length };
}

/** The J below which a spike's local term is floored: safe_log(μ·J/π) is LOG_EPS when μ·J/π < EPS. */
export function floorThreshold(meanRate: number, logOccupancy: number): number {
  const occupancy = Math.exp(logOccupancy);
  if (!(occupancy > 0) || !(meanRate > 0)) return Infinity;
  return (EPS * occupancy) / meanRate;
}
