/**
 * The No-Spike state's log likelihood (posterior-spec §8, likelihoods/no_spike.py):
 * Σ_e [ xlogy(n_e(t), r) − r ] with r = rate · median(diff(time)), a rate per second made a
 * probability per row.
 */
import { upperBound } from '../../../shared/sortedSearch';

/** numpy.median of the steps between consecutive times (the mean of the middle two when even). */
export function medianStep(time: Float64Array): number {
  const steps = new Float64Array(Math.max(0, time.length - 1));
  for (let i = 0; i < steps.length; i++) steps[i] = time[i + 1]! - time[i]!;
  if (steps.length === 0) return NaN;
  steps.sort();
  const mid = steps.length >> 1;
  return steps.length % 2 === 1 ? steps[mid]! : (steps[mid - 1]! + steps[mid]!) / 2;
}

/**
 * Row of a spike as np.digitize(s, time[1:-1]) after keeping time[0] ≤ s ≤ time[T−1]: the last
 * row never gets one (a spike at time[T−1] goes to row T−2), and later spikes are dropped.
 */
export function spikeRow(time: Float64Array, spike: number): number {
  const last = time.length - 1;
  if (!(spike >= time[0]!) || !(spike <= time[last]!)) return -1;
  return Math.max(0, Math.min(upperBound(time, spike) - 1, last - 1));
}

export function noSpikeLogLikelihood(time: Float64Array, spikeTimesPerElectrode: Float64Array[], noSpikeRate: number): Float32Array {
  const rows = time.length;
  const perRow = noSpikeRate * medianStep(time);
  const logRate = Math.log(perRow);
  const ll = new Float64Array(rows);
  for (const spikes of spikeTimesPerElectrode) {
    for (const s of spikes) {
      const row = spikeRow(time, s);
      if (row >= 0) ll[row]! += logRate;
    }
    for (let t = 0; t < rows; t++) ll[t]! -= perRow;
  }
  return Float32Array.from(ll);
}
