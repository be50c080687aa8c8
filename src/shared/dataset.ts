/**
 * The in-memory experiment the engine consumes, and the summary the UI shows. Arrays are host
 * float64 (times must stay float64: epoch seconds lose milliseconds in float32); the engine casts
 * to float32 when it moves data to a device. Matrices are row-major with their column count beside.
 */

import { chanceAccuracy, positionsWithin, type ChanceAccuracy } from './chanceAccuracy';

export interface ElectrodeData {
  /** label shown to people: electrode_names[e] or "e<e>" */
  name: string;
  /** mark dimension D_e (may differ between electrodes) */
  nFeatures: number;
  /** encoding spikes: times (n,), marks (n × nFeatures) row-major */
  encodingSpikeTimes: Float64Array;
  encodingFeatures: Float64Array;
  /** decoding spikes; when a file has no separate decoding spikes these are the same arrays */
  decodingSpikeTimes: Float64Array;
  decodingFeatures: Float64Array;
}

export interface KdeParams {
  /** position kernel σ: scalar (repeated per position dimension) or one per dimension */
  positionStd: number | number[];
  /** mark kernel σ: scalar (expanded to D_e per electrode) or one per feature (every electrode must match) */
  waveformStd: number | number[];
  /** decoding spikes per block (spec default 100) */
  blockSize: number;
  /** place bin size used to build the grid when the file gives none */
  placeBinSize?: number;
}

/** Values the float64 reference computed for this input (fixtures carry them). */
export interface ExpectedOutputs {
  occupancy?: Float64Array;
  meanRates?: Float64Array;
  summedGroundProcessIntensity?: Float64Array;
  /** (nTime × nBins) row-major */
  logLikelihoodNonlocal?: Float64Array;
  /** (nTime × 1) */
  logLikelihoodLocal?: Float64Array;
}

/**
 * A place grid: every bin's centre, and 1 where the bin is on the track (interior). A 2-D grid is
 * NLD's regular grid of x-major bins (C order: bin ix·ny + iy), its centres (B × 2) row-major.
 */
export interface PlaceGridBins {
  /** B × dims row-major, dims = shape's length (1 when shape is absent) */
  centers: Float64Array;
  /** B flags */
  interior: Uint8Array;
  /** bins per axis of a 2-D grid ([nx, ny]); absent on a 1-D grid */
  shape?: number[];
}

export interface Dataset {
  /** short name: preset name or file stem */
  name: string;
  /** "preset:medium" or the file path it was loaded from */
  source: string;
  /** encoding position samples: times (N,), positions (N × positionDims) row-major, NaN = missing */
  positionTime: Float64Array;
  position: Float64Array;
  positionDims: number;
  /** which position samples the encoding model is fit on (aligned to positionTime); absent = all */
  isTraining?: Uint8Array;
  /** decoding grid: one output row per entry (spec §4.4) */
  time: Float64Array;
  /** positions for the local likelihood; absent means use positionTime/position */
  decodingPositionTime?: Float64Array;
  decodingPosition?: Float64Array;
  electrodes: ElectrodeData[];
  /** interior place-bin centres (P × positionDims) row-major, already restricted to the track interior */
  placeBinCenters: Float64Array;
  /**
   * The whole place grid with its interior mask, where it is known (built from place_bin_size, or
   * place_bin_centers with is_track_interior): the posterior keeps non-interior bins in its state
   * space and its output (posterior-spec §4, §12). Absent: every bin of placeBinCenters is interior.
   */
  placeGrid?: PlaceGridBins;
  params: KdeParams;
  expected?: ExpectedOutputs;
  /** where each default or derived value came from, for the report ("grid built from place_bin_size 0.2") */
  notes: string[];
}

export interface ElectrodeSummary {
  name: string;
  nFeatures: number;
  nEncodingSpikes: number;
  /** decoding spikes on the time grid (t_0 ≤ u ≤ t_{T−1}): those a decode computes terms for */
  nDecodingSpikes: number;
}

export interface DatasetSummary {
  name: string;
  source: string;
  nElectrodes: number;
  electrodes: ElectrodeSummary[];
  nEncodingSpikes: number;
  nDecodingSpikes: number;
  nPositionSamples: number;
  positionDims: number;
  positionRange: [number, number];
  timeSpan: [number, number];
  nTime: number;
  /** the interior place bins: the likelihood's columns */
  nBins: number;
  /**
   * Every bin of the place grid, interior or not (the posterior's state space keeps them all), so an
   * estimate before a run sizes the posterior without the grid. Absent where a 2-D dataset knows
   * only its interior bins (no posterior runs on it), and in summaries written before it.
   */
  nPlaceGridBins?: number;
  featureDims: number[];
  positionStd: number[];
  waveformStd: number | number[];
  blockSize: number;
  hasExpected: boolean;
  notes: string[];
  /** what guessing a bin uniformly would score against the true positions over the decoded span, where the data know them */
  chanceAccuracy?: ChanceAccuracy;
}

/**
 * How many of these times lie on the grid t_0 … t_{T−1} (closed at both ends, as the predict keeps
 * decoding spikes). A recording decoded over its last minutes still lists every spike as a
 * decoding spike; sizes, memory estimates and rooflines need the ones the decode computes.
 */
function onGrid(times: Float64Array, grid: Float64Array): number {
  if (grid.length === 0) return 0;
  const [lo, hi] = [grid[0]!, grid[grid.length - 1]!];
  let n = 0;
  for (const u of times) if (u >= lo && u <= hi) n++;
  return n;
}

export function summarizeDataset(d: Dataset): DatasetSummary {
  const electrodes = d.electrodes.map((e) => ({
    name: e.name,
    nFeatures: e.nFeatures,
    nEncodingSpikes: e.encodingSpikeTimes.length,
    nDecodingSpikes: onGrid(e.decodingSpikeTimes, d.time),
  }));
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of d.position) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const q = d.positionDims;
  const positionStd = Array.isArray(d.params.positionStd)
    ? d.params.positionStd.slice()
    : new Array<number>(q).fill(d.params.positionStd);
  return {
    name: d.name,
    source: d.source,
    nElectrodes: d.electrodes.length,
    electrodes,
    nEncodingSpikes: electrodes.reduce((s, e) => s + e.nEncodingSpikes, 0),
    nDecodingSpikes: electrodes.reduce((s, e) => s + e.nDecodingSpikes, 0),
    nPositionSamples: d.positionTime.length,
    positionDims: q,
    positionRange: [Number.isFinite(lo) ? lo : 0, Number.isFinite(hi) ? hi : 0],
    timeSpan: [d.time.length ? d.time[0]! : 0, d.time.length ? d.time[d.time.length - 1]! : 0],
    nTime: d.time.length,
    nBins: d.placeBinCenters.length / q,
    ...(q === 1 || d.placeGrid ? { nPlaceGridBins: d.placeGrid?.interior.length ?? d.placeBinCenters.length } : {}),
    featureDims: [...new Set(d.electrodes.map((e) => e.nFeatures))].sort((a, b) => a - b),
    positionStd,
    waveformStd: d.params.waveformStd,
    blockSize: d.params.blockSize,
    hasExpected: d.expected !== undefined,
    notes: d.notes.slice(),
    ...chanceOf(d),
  };
}

function chanceOf(d: Dataset): { chanceAccuracy?: ChanceAccuracy } {
  if (d.time.length === 0) return {};
  const chance = chanceAccuracy(d.placeBinCenters, positionsWithin(d, d.time[0]!, d.time[d.time.length - 1]!), d.positionDims);
  return chance ? { chanceAccuracy: chance } : {};
}
