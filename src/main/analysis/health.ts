/**
 * Numerical health of one fit + predict: non-finite values in the fit outputs and the
 * likelihood, the share of spike terms on the LOG_EPS floor (spec §9.1: at about 8+ features with
 * the default waveform σ every term is floored and the likelihood goes flat), and electrodes with
 * too few encoding spikes to estimate a mark density.
 */
import type { ElectrodeHealth, NumericalHealth } from '../../shared/report';

export interface ElectrodeHealthInput {
  name: string;
  nEnc: number;
  nDec: number;
  /** share of this electrode's spike terms on the floor; NaN when it had none (engine convention) */
  floorShare: number;
  /** non-finite values the engine saw for this electrode (ground process, spike terms) */
  nonFinite: number;
  /** mark dimension D_e; falls back to the input's nFeatures */
  nFeatures?: number;
  /** spike terms computed for this electrode; weights its floor share (default nDec · nBins) */
  nTerms?: number;
}

export interface HealthInput {
  occupancy: Float64Array | Float32Array;
  /** summed ground-process intensity, one value per bin */
  groundProcess: Float64Array | Float32Array;
  likelihood: Float64Array | Float32Array;
  electrodes: readonly ElectrodeHealthInput[];
  /** mark dimension used where an electrode does not name its own (default 1) */
  nFeatures?: number;
  /** position dimension Q (default 1, the linear track) */
  positionDims?: number;
  /** overrides the default threshold of minEncodingSpikesFor */
  minEncodingSpikes?: number;
}

/** Sample size per dimension that the default threshold asks for. */
export const ENCODING_SPIKES_PER_DIMENSION = 2;

/**
 * Fewest encoding spikes for a usable joint (position, mark) density: 2·(D + Q).
 * A KDE over D + Q dimensions from fewer than D + Q + 1 samples cannot even span the space, so
 * it is a handful of isolated bumps; twice the dimension is the smallest count at which the
 * estimate has any structure beyond the individual spikes. With no spikes at all the mean rate
 * is 0 and users see all-NaN or floor-only intensities (the complaint the issue quotes). On a
 * linear track (Q = 1) this is 2·(D + 1): 6 spikes for tetrode-style 2-D marks, 18 at D = 8.
 */
export function minEncodingSpikesFor(nFeatures: number, positionDims = 1): number {
  return ENCODING_SPIKES_PER_DIMENSION * (nFeatures + positionDims);
}

export function countNonFinite(values: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) n++;
  return n;
}

export function numericalHealth(input: HealthInput): NumericalHealth {
  const nBins = input.occupancy.length;
  const q = input.positionDims ?? 1;
  let floored = 0;
  let terms = 0;
  const electrodes: ElectrodeHealth[] = input.electrodes.map((e) => {
    const d = e.nFeatures ?? input.nFeatures ?? 1;
    const threshold = input.minEncodingSpikes ?? minEncodingSpikesFor(d, q);
    // an electrode without spike terms has nothing on the floor: report 0, not the engine's NaN
    const share = Number.isFinite(e.floorShare) ? e.floorShare : 0;
    const nTerms = e.nTerms ?? e.nDec * nBins;
    if (Number.isFinite(e.floorShare) && nTerms > 0) {
      floored += share * nTerms;
      terms += nTerms;
    }
    return {
      electrode: e.name,
      nEncodingSpikes: e.nEnc,
      nDecodingSpikes: e.nDec,
      nonFinite: e.nonFinite,
      floorShare: share,
      tooFewEncodingSpikes: e.nEnc < threshold,
    };
  });
  return {
    nonFiniteOccupancy: countNonFinite(input.occupancy),
    nonFiniteGroundProcess: countNonFinite(input.groundProcess),
    nonFiniteLikelihood: countNonFinite(input.likelihood),
    floorShare: terms > 0 ? floored / terms : 0,
    electrodes,
  };
}
