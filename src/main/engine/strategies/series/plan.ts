/**
 * Host-side plan of the `series` strategy: the Gaussian mark kernel as a truncated Taylor series
 * of its cross term, with a bound that says for which decoding spikes the truncation is exact to
 * SERIES_RELATIVE_ERROR.
 *
 * With a = (m − c)/σ and b = (y − c)/σ (c the electrode's mean encoding mark),
 *   exp(−½|a − b|²) = exp(−½|a|²) · exp(−½|b|²) · exp(a·b),
 *   exp(a·b) = Σ_{|α| ≤ N} (a^α/√α!) (b^α/√α!) + R,   |R| ≤ e^{|x|} |x|^{N+1} / (N+1)!,  x = a·b,
 * so the (S × E) mark kernel times the (E × P) position kernel becomes (S × F)·(F × P), F the number
 * of monomials of degree ≤ N in D variables, with the (F × P) factor built once per electrode.
 * Every term of the sum over encoding spikes is positive, so a relative error ≤ δ on each mark
 * kernel entry is a relative error ≤ δ on every J[k, p] (and ≤ δ on its log), whatever the
 * positions; |x| ≤ |a|·|b| bounds each entry by the two spikes' radii.
 */
import { MAX_SERIES_FEATURES, SERIES_MIN_SAVING } from '../../model';

/** Largest relative error the truncation may add to a mark kernel entry (so to J, and ~ to ℓ). */
export const SERIES_RELATIVE_ERROR = 1e-6;
/** Highest series order considered: beyond it the radius gain is small and F grows as N^D. */
export const MAX_SERIES_ORDER = 8;

export interface SeriesBasis {
  nFeatures: number;
  order: number;
  /** per monomial α (graded order, constant first): the monomial it extends by one factor, or −1 */
  parent: Int32Array;
  /** the dimension of that factor */
  dim: Int32Array;
  /** 1/√α_dim: turns parent^·v_dim/√(α−e_dim)! into v^α/√α! */
  scale: Float64Array;
}

export interface SeriesPlan {
  /** true when no spike can take the series (too few encoding spikes for a saving, or no order fits) */
  direct: boolean;
  basis: SeriesBasis;
  /** per dimension: the centre c and 1/σ */
  centre: Float64Array;
  invStd: Float64Array;
  /** decoding spikes with |a| ≤ this take the series; the others the direct product */
  maxDecodingRadius: number;
  /** max |b| over the electrode's encoding spikes */
  encodingRadius: number;
}

/**
 * Whether the plan's reach covers decoding spikes as far out as its farthest encoding spike: then
 * the series strategy will use the linear position kernel (its factor is built from it), else it
 * hands most or all of the electrode to compensated, which never reads it.
 */
export function seriesCoversEncoding(plan: SeriesPlan): boolean {
  return !plan.direct && plan.maxDecodingRadius >= plan.encodingRadius;
}

/** Number of monomials of degree ≤ n in d variables, C(n + d, d); Infinity past 2^31. */
export function seriesFeatureCount(order: number, dims: number): number {
  let c = 1;
  for (let k = 1; k <= dims; k++) {
    c = (c * (order + k)) / k;
    if (c > 2 ** 31) return Infinity;
  }
  return Math.round(c);
}

/** e^{2x} x^{n+1}/(n+1)!: the relative truncation error bound at |a·b| = x. */
export function truncationBound(order: number, x: number): number {
  let term = Math.exp(2 * x);
  for (let k = 1; k <= order + 1; k++) term *= x / k;
  return term;
}

/** The largest x with truncationBound(order, x) ≤ delta (the bound grows with x), by bisection. */
export function seriesReach(order: number, delta = SERIES_RELATIVE_ERROR): number {
  let lo = 0;
  let hi = 1;
  while (truncationBound(order, hi) <= delta) hi *= 2;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (truncationBound(order, mid) <= delta) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Monomials of degree ≤ order in dims variables, each built from a lower one by one factor. */
export function seriesBasis(order: number, dims: number): SeriesBasis {
  const exps: number[][] = [new Array<number>(dims).fill(0)];
  const parent = [-1];
  const dim = [0];
  const scale = [1];
  let levelStart = 0;
  for (let n = 1; n <= order; n++) {
    const levelEnd = exps.length;
    for (let i = levelStart; i < levelEnd; i++) {
      const e = exps[i]!;
      // extend only at or after the last non-zero dimension, so each monomial appears once
      let last = 0;
      for (let j = 0; j < dims; j++) if (e[j]! > 0) last = j;
      for (let j = last; j < dims; j++) {
        const next = e.slice();
        next[j]!++;
        exps.push(next);
        parent.push(i);
        dim.push(j);
        scale.push(1 / Math.sqrt(next[j]!));
      }
    }
    levelStart = levelEnd;
  }
  return {
    nFeatures: exps.length,
    order,
    parent: Int32Array.from(parent),
    dim: Int32Array.from(dim),
    scale: Float64Array.from(scale),
  };
}

/** seriesFeatures' float64 products, reused: it runs once per spike, and a fresh array each time kept the collector busy. */
let featureScratch = new Float64Array(64);

/** v^α/√α! for every monomial α of the basis, into out[offset .. offset + F). */
export function seriesFeatures(basis: SeriesBasis, v: ArrayLike<number>, out: Float32Array | Float64Array, offset: number): void {
  if (featureScratch.length < basis.nFeatures) featureScratch = new Float64Array(basis.nFeatures);
  const f = featureScratch;
  f[0] = 1;
  for (let a = 1; a < basis.nFeatures; a++) f[a] = f[basis.parent[a]!]! * v[basis.dim[a]!]! * basis.scale[a]!;
  for (let a = 0; a < basis.nFeatures; a++) out[offset + a] = f[a]!;
}

/** (x − c)/σ of row i of a row-major (n × d) matrix. */
export function scaledRow(plan: Pick<SeriesPlan, 'centre' | 'invStd'>, marks: ArrayLike<number>, i: number, into: Float64Array): number {
  const d = plan.centre.length;
  let sq = 0;
  for (let j = 0; j < d; j++) {
    const v = (marks[i * d + j]! - plan.centre[j]!) * plan.invStd[j]!;
    into[j] = v;
    sq += v * v;
  }
  return sq;
}

/**
 * The order and radius for one electrode, from its encoding marks (row-major E × D) alone, so a
 * model's factor is the same for every call on it: the lowest order whose reach covers decoding
 * spikes as far out as the farthest encoding spike, else the highest order the feature limit allows.
 */
export function planSeries(encMarks: ArrayLike<number>, nEnc: number, std: number[], delta = SERIES_RELATIVE_ERROR): SeriesPlan {
  const d = std.length;
  const centre = new Float64Array(d);
  for (let i = 0; i < nEnc; i++) for (let j = 0; j < d; j++) centre[j]! += encMarks[i * d + j]! / nEnc;
  const invStd = Float64Array.from(std, (s) => 1 / s);
  // the largest |(y − c)/σ|² (one scaling object for every spike: this runs per electrode and call)
  const scaling = { centre, invStd };
  const row = new Float64Array(d);
  let maxSq = 0;
  for (let i = 0; i < nEnc; i++) maxSq = Math.max(maxSq, scaledRow(scaling, encMarks, i, row));
  const encodingRadius = Math.sqrt(maxSq);
  const featureLimit = Math.min(MAX_SERIES_FEATURES, Math.floor(nEnc / SERIES_MIN_SAVING));
  let order = -1;
  for (let n = 0; n <= MAX_SERIES_ORDER && seriesFeatureCount(n, d) <= featureLimit; n++) {
    order = n;
    if (seriesReach(n, delta) >= maxSq) break;
  }
  if (order < 0) return { direct: true, basis: seriesBasis(0, d), centre, invStd, maxDecodingRadius: 0, encodingRadius };
  const reach = seriesReach(order, delta);
  return {
    direct: false,
    basis: seriesBasis(order, d),
    centre,
    invStd,
    maxDecodingRadius: encodingRadius > 0 ? reach / encodingRadius : Infinity,
    encodingRadius,
  };
}
