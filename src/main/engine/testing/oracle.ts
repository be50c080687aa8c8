/**
 * A float64 oracle of the likelihood written straight from kde-spec §3–§4 (linear semantics, the
 * likelihood function called directly: NaN positions are NOT dropped). Slow and simple on
 * purpose; tests compare the engine with it on small hand-made inputs.
 */
import type { Dataset } from '../../../shared/dataset';
import { EPS, HALF_LOG_2PI, LOG_EPS } from '../model';
import { stdVector } from '../fit/kernelWidths';
import { interpolatePosition, spikeRows } from '../fit/positionTrack';

function kernel(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, std: number[]): number {
  let prod = 1;
  for (let j = 0; j < std.length; j++) {
    const z = (a[ai * std.length + j]! - b[bi * std.length + j]!) / std[j]!;
    prod *= Math.exp(-0.5 * z * z - Math.log(std[j]!) - HALF_LOG_2PI);
  }
  return prod;
}

function kde(evalPts: ArrayLike<number>, m: number, samples: ArrayLike<number>, n: number, std: number[]): Float64Array {
  const out = new Float64Array(m);
  if (n === 0) return out;
  for (let k = 0; k < m; k++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += kernel(evalPts, k, samples, i, std);
    out[k] = s / n;
  }
  return out;
}

const safeLog = (x: number): number => (Number.isNaN(x) ? x : Math.log(Math.abs(x) < EPS ? EPS : x));

export interface OracleResult {
  occupancy: Float64Array;
  meanRates: Float64Array;
  summedGroundProcessIntensity: Float64Array;
  nonlocal: Float64Array;
  local: Float64Array;
}

function concatRows(a: Float64Array, qa: number, b: Float64Array, qb: number, n: number): Float64Array {
  const out = new Float64Array(n * (qa + qb));
  for (let i = 0; i < n; i++) {
    out.set(a.subarray(i * qa, i * qa + qa), i * (qa + qb));
    out.set(b.subarray(i * qb, i * qb + qb), i * (qa + qb) + qa);
  }
  return out;
}

export function oracle(d: Dataset): OracleResult {
  const q = d.positionDims;
  const pstd = stdVector(d.params.positionStd, q, 'position_std');
  const P = d.placeBinCenters.length / q;
  const N = d.positionTime.length;
  const T = d.time.length;
  const occupancy = kde(d.placeBinCenters, P, d.position, N, pstd);
  const summed = new Float64Array(P);
  const meanRates = new Float64Array(d.electrodes.length);
  const nonlocal = new Float64Array(T * P);
  const local = new Float64Array(T);
  const posTime = d.decodingPositionTime ?? d.positionTime;
  const pos = d.decodingPosition ?? d.position;
  const xt = T > 0 ? interpolatePosition(posTime, pos, q, d.time) : new Float64Array(0);
  const occT = kde(xt, T, d.position, N, pstd);
  const perElectrode: Float64Array[] = [];
  d.electrodes.forEach((el, e) => {
    const D = el.nFeatures;
    const wstd = stdVector(d.params.waveformStd, D, 'waveform_std');
    const keep: number[] = [];
    el.encodingSpikeTimes.forEach((s, i) => {
      if (s >= d.positionTime[0]! && s <= d.positionTime[N - 1]!) keep.push(i);
    });
    const E = keep.length;
    const times = Float64Array.from(keep, (i) => el.encodingSpikeTimes[i]!);
    const marks = new Float64Array(E * D);
    keep.forEach((i, k) => marks.set(el.encodingFeatures.subarray(i * D, i * D + D), k * D));
    const xi = E > 0 ? interpolatePosition(d.positionTime, d.position, q, times) : new Float64Array(0);
    const mu = E / Math.max(N, 1);
    meanRates[e] = mu;
    const g = kde(d.placeBinCenters, P, xi, E, pstd);
    const gpi = new Float64Array(P);
    for (let p = 0; p < P; p++) {
      const ratio = occupancy[p]! > 0 ? g[p]! / occupancy[p]! : EPS;
      const term = mu * ratio;
      gpi[p] = Number.isNaN(term) ? NaN : Math.max(term, EPS);
      summed[p] = summed[p]! + gpi[p]!;
    }
    perElectrode.push(gpi);

    const dk: number[] = [];
    el.decodingSpikeTimes.forEach((u, k) => {
      if (T > 0 && u >= d.time[0]! && u <= d.time[T - 1]!) dk.push(k);
    });
    const S = dk.length;
    const dt = Float64Array.from(dk, (k) => el.decodingSpikeTimes[k]!);
    const dm = new Float64Array(S * D);
    dk.forEach((k, j) => dm.set(el.decodingFeatures.subarray(k * D, k * D + D), j * D));
    const rows = spikeRows(dt, d.time);
    for (let k = 0; k < S; k++) {
      for (let p = 0; p < P; p++) {
        let j = 0;
        for (let i = 0; i < E; i++) j += kernel(dm, k, marks, i, wstd) * kernel(d.placeBinCenters, p, xi, i, pstd);
        j = E > 0 ? j / E : 0;
        const lam = mu * (occupancy[p]! > 0 ? j / occupancy[p]! : 0);
        nonlocal[rows[k]! * P + p] = nonlocal[rows[k]! * P + p]! + Math.max(safeLog(lam), LOG_EPS);
      }
    }
    // local path
    const xk = S > 0 ? interpolatePosition(posTime, pos, q, dt) : new Float64Array(0);
    const joint = kde(concatRows(xk, q, dm, D, S), S, concatRows(xi, q, marks, D, E), E, [...pstd, ...wstd]);
    const occK = kde(xk, S, d.position, N, pstd);
    for (let k = 0; k < S; k++) {
      const ratio = occK[k]! > 0 ? joint[k]! / occK[k]! : 0;
      local[rows[k]!] = local[rows[k]!]! + safeLog(mu * ratio);
    }
    const gt = kde(xt, T, xi, E, pstd);
    for (let t = 0; t < T; t++) local[t] = local[t]! - mu * (occT[t]! > 0 ? gt[t]! / occT[t]! : 0);
  });
  for (let t = 0; t < T; t++) for (let p = 0; p < P; p++) nonlocal[t * P + p] = nonlocal[t * P + p]! - summed[p]!;
  return { occupancy, meanRates, summedGroundProcessIntensity: summed, nonlocal, local };
}
