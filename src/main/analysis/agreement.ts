/**
 * Numerical agreement between two (nTime × nBins) likelihoods, the way the profile script checks
 * it (spec §8.4) with the tolerance: max and mean |a − b|, allclose, and whether the
 * decoded position (argmax per time row) is the same.
 */
import type { Agreement, AgreementMatrix } from '../../shared/report';
import { BugError } from '../../shared/errors';

export const ALLCLOSE_RTOL = 1e-4;
export const ALLCLOSE_ATOL = 1e-4;

type Values = Float64Array | Float32Array;

/** Same value in the sense of allclose with equal_nan: equal infinities and NaN on both sides. */
function sameNonFinite(x: number, y: number): boolean {
  return (Number.isNaN(x) && Number.isNaN(y)) || (x === y && !Number.isFinite(x));
}

/**
 * Index of the first largest value in row `r`. A NaN wins, as in NumPy's argmax (the first NaN),
 * so a row that is NaN on one side only counts as a disagreement.
 */
export function rowArgmax(values: Values, r: number, nBins: number): number {
  const off = r * nBins;
  let best = -1;
  let bestValue = -Infinity;
  for (let p = 0; p < nBins; p++) {
    const v = values[off + p]!;
    if (Number.isNaN(v)) return p;
    if (best < 0 || v > bestValue) {
      best = p;
      bestValue = v;
    }
  }
  return best;
}

/**
 * Compares `a` against the reference side `b`: allclose means |a − b| ≤ atol + rtol·|b| at every
 * entry. Differences are taken over pairs finite on both sides (mean included); a pair
 * non-finite on one side only, or infinite with opposite signs, makes maxAbsDiff Infinity and
 * fails allclose. NaN on both sides, or the same infinity, agrees.
 */
export function compareArrays(a: Values, b: Values, nTime: number, nBins: number, against: string): Agreement {
  if (a.length !== b.length || a.length !== nTime * nBins) {
    throw new BugError(
      `compareArrays(${against}): lengths ${a.length} and ${b.length} do not match ${nTime}×${nBins}`,
    );
  }
  let maxAbsDiff = 0;
  let sumAbsDiff = 0;
  let nFinite = 0;
  let allclose = true;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (Number.isFinite(x) && Number.isFinite(y)) {
      const d = Math.abs(x - y);
      if (d > maxAbsDiff) maxAbsDiff = d;
      sumAbsDiff += d;
      nFinite++;
      if (d > ALLCLOSE_ATOL + ALLCLOSE_RTOL * Math.abs(y)) allclose = false;
    } else if (!sameNonFinite(x, y)) {
      maxAbsDiff = Infinity;
      allclose = false;
    }
  }
  let sameArgmax = 0;
  for (let r = 0; r < nTime; r++) {
    if (rowArgmax(a, r, nBins) === rowArgmax(b, r, nBins)) sameArgmax++;
  }
  return {
    against,
    maxAbsDiff,
    meanAbsDiff: nFinite > 0 ? sumAbsDiff / nFinite : 0,
    allclose,
    argmaxAgreement: nTime > 0 ? sameArgmax / nTime : 1,
  };
}

/**
 * Every pair of results compared once and mirrored, so the matrix is symmetric with a diagonal
 * of 0 / true / 1. For allclose (the one asymmetric test) the earlier entry of `results` is the
 * reference side: list the reference strategy first.
 */
export function agreementMatrix(
  results: readonly { name: string; values: Values }[],
  nTime: number,
  nBins: number,
): AgreementMatrix {
  const n = results.length;
  // every off-diagonal cell is overwritten below; the fill value is the diagonal's
  const square = <T>(diag: T): T[][] => Array.from({ length: n }, () => new Array<T>(n).fill(diag));
  const maxAbsDiff = square(0);
  const meanAbsDiff = square(0);
  const allclose = square(true);
  const argmaxAgreement = square(1);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const ri = results[i]!;
      const rj = results[j]!;
      const g = compareArrays(rj.values, ri.values, nTime, nBins, ri.name);
      maxAbsDiff[i]![j] = maxAbsDiff[j]![i] = g.maxAbsDiff;
      meanAbsDiff[i]![j] = meanAbsDiff[j]![i] = g.meanAbsDiff;
      allclose[i]![j] = allclose[j]![i] = g.allclose;
      argmaxAgreement[i]![j] = argmaxAgreement[j]![i] = g.argmaxAgreement;
    }
  }
  return { strategies: results.map((r) => r.name), maxAbsDiff, meanAbsDiff, allclose, argmaxAgreement };
}
