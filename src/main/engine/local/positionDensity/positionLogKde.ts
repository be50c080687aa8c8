/**
 * The position KDEs of the local likelihood (occupancy and each electrode's ground KDE at the
 * animal's own positions): tabulated where positions are one-dimensional and the bound holds
 * (tabulatedKde.ts), pair by pair (logKde) for the rest.
 */
import { logKde } from '../../gaussian';
import { tabulatedLogKde } from './tabulatedKde';

export interface PositionDensity {
  /** log density at each query point */
  log: Float64Array;
  /** how many points were evaluated pair by pair */
  exactPoints: number;
}

/** log[(1/n) Σ_i K_σ(x, s_i)] at each query row, samples (n × q) and queries (m × q) row-major. */
export async function positionLogKde(samples: Float64Array, queries: Float64Array, q: number, std: number[]): Promise<PositionDensity> {
  const tabulated = q === 1 ? tabulatedLogKde(samples, queries, std[0]!) : null;
  if (!tabulated) return { log: await logKde(samples, queries, q, std), exactPoints: queries.length / q };
  const { log, exact } = tabulated;
  if (exact.length > 0) {
    const values = await logKde(samples, Float64Array.from(exact, (i) => queries[i]!), 1, std);
    exact.forEach((i, k) => (log[i] = values[k]!));
  }
  return { log, exactPoints: exact.length };
}
