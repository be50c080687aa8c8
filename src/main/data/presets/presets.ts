/**
 * The synthetic profiling presets of kde-spec §8: the sizes of the profile script's DATASET_SIZES and
 * the generator semantics of create_synthetic_data, drawn from our own seeded stream. Their spikes
 * carry no place information; `place` is the one preset that decodes (placeSimulation.ts).
 */
import type { PresetInfo } from '../../../shared/api';
import type { PresetName } from '../../../shared/config';
import type { Dataset, ElectrodeData } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import { buildPlaceGrid1d, linspace } from '../grid';
import { PLACE_PRESET, simulatePlaceDataset, TRACK_CM } from './placeSimulation';
import { Rng } from './rng';
import { DEFAULT_BLOCK_SIZE, DEFAULT_POSITION_STD, DEFAULT_WAVEFORM_STD } from '../../engine/model';

export const PRESET_INFO: PresetInfo[] = [
  { name: 'tiny', nTimeEncoding: 100, nTimeDecoding: 50, nElectrodes: 4, meanEncodingSpikes: 20, meanDecodingSpikes: 10, nPositionBins: 100 },
  { name: 'small', nTimeEncoding: 500, nTimeDecoding: 100, nElectrodes: 8, meanEncodingSpikes: 50, meanDecodingSpikes: 30, nPositionBins: 200 },
  { name: 'medium', nTimeEncoding: 2000, nTimeDecoding: 500, nElectrodes: 16, meanEncodingSpikes: 200, meanDecodingSpikes: 100, nPositionBins: 500 },
  { name: 'large', nTimeEncoding: 5000, nTimeDecoding: 1000, nElectrodes: 32, meanEncodingSpikes: 500, meanDecodingSpikes: 300, nPositionBins: 1000 },
  { name: 'realistic', nTimeEncoding: 10000, nTimeDecoding: 2000, nElectrodes: 64, meanEncodingSpikes: 1000, meanDecodingSpikes: 400, nPositionBins: 2000 },
  placeInfo(),
];

/** The place preset's sizes from its parameters; spike counts are means (tetrodes differ, 0.6–1.4×). */
function placeInfo(): PresetInfo {
  const p = PLACE_PRESET;
  const perElectrode = p.totalSpikes / p.electrodes;
  const decodedShare = p.decodeLastS / p.durationS;
  return {
    name: 'place',
    nTimeEncoding: Math.round((p.durationS - p.decodeLastS) * p.positionHz),
    nTimeDecoding: Math.round(p.decodeLastS / p.rowS) + 1,
    nElectrodes: p.electrodes,
    meanEncodingSpikes: Math.round(perElectrode * (1 - decodedShare)),
    meanDecodingSpikes: Math.round(perElectrode * decodedShare),
    nPositionBins: Math.round(TRACK_CM / p.placeBinSize),
  };
}

const POSITION_LO = 0;
const POSITION_HI = 100;
const ENCODING_DURATION_S = 100;
const DECODING_DURATION_S = 20;

/**
 * Sizes a sweep changes, each left out keeping the preset's own. Spike counts are means per
 * electrode (the peer presets draw them from a Poisson law around it).
 */
export interface PresetSizes {
  nElectrodes?: number;
  meanEncodingSpikes?: number;
  meanDecodingSpikes?: number;
  nPositionBins?: number;
}

export interface PresetOptions {
  seed?: number;
  /** mark dimension D (default 2, as the profile script) */
  features?: number;
  /** multiplies the N(0,1) marks after drawing (default 1) */
  featureScale?: number;
  /** sizes other than the preset's (a sweep); without them the preset is exactly its table row */
  sizes?: PresetSizes;
}

/** bounds that keep an override a size a machine can hold, and a grid the generator can build */
const SIZE_LIMITS: Record<keyof PresetSizes, [number, number]> = {
  nElectrodes: [1, 1024],
  meanEncodingSpikes: [1, 10_000_000],
  meanDecodingSpikes: [1, 10_000_000],
  nPositionBins: [2, 1_000_000],
};

interface Spikes {
  times: Float64Array;
  features: Float64Array;
}

function drawSpikes(rng: Rng, mean: number, durationS: number, nFeatures: number, featureScale: number): Spikes {
  const n = rng.poisson(mean);
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) times[i] = rng.uniform(0, durationS);
  times.sort();
  const features = new Float64Array(n * nFeatures);
  for (let i = 0; i < features.length; i++) features[i] = rng.normal() * featureScale;
  return { times, features };
}

export function presetInfo(name: PresetName): PresetInfo {
  const info = PRESET_INFO.find((p) => p.name === name);
  if (!info) throw new AppError('BAD_ARGUMENT', `Unknown preset '${name}'. Choose one of ${PRESET_INFO.map((p) => p.name).join(', ')}.`);
  return info;
}

/** the sizes given (keys left undefined dropped, so they cannot blank the preset's own), each checked */
function checkedSizes(sizes: PresetSizes): PresetSizes {
  const out: PresetSizes = {};
  for (const [key, v] of Object.entries(sizes) as [keyof PresetSizes, number | undefined][]) {
    if (v === undefined) continue;
    const [lo, hi] = SIZE_LIMITS[key];
    if (!Number.isInteger(v) || v < lo || v > hi) {
      throw new AppError('BAD_ARGUMENT', `preset size ${key} must be an integer from ${lo} to ${hi}, got ${v}.`, { key });
    }
    out[key] = v;
  }
  return out;
}

/** What changed from the preset's table row, for the dataset's notes. */
function sizesNote(name: PresetName, sizes: PresetSizes): string | null {
  const parts = Object.entries(sizes).map(([k, v]) => `${k} ${v}`);
  return parts.length > 0 ? `sizes changed from preset '${name}': ${parts.join(', ')}` : null;
}

/**
 * The place simulation with other sizes: more electrodes keep each tetrode's spike rate; more
 * encoding spikes lengthen the recording before the decoded window (which stays as it is);
 * more bins narrow them over the same track. The decoded spikes follow from the window's length
 * and the rates, so they cannot be set here.
 */
function placeOptions(sizes: PresetSizes): typeof PLACE_PRESET {
  const p = PLACE_PRESET;
  if (sizes.meanDecodingSpikes !== undefined) {
    throw new AppError('BAD_ARGUMENT', "preset 'place' decodes a fixed 20 s window, so its decoding spikes cannot be set; vary them on a peer preset (tiny … realistic) or on a file.",
      { key: 'meanDecodingSpikes' });
  }
  const ratePerElectrodeHz = p.totalSpikes / p.electrodes / p.durationS;
  const electrodes = sizes.nElectrodes ?? p.electrodes;
  const durationS = sizes.meanEncodingSpikes === undefined ? p.durationS : p.decodeLastS + sizes.meanEncodingSpikes / ratePerElectrodeHz;
  return {
    ...p,
    electrodes,
    durationS,
    totalSpikes: Math.round(ratePerElectrodeHz * electrodes * durationS),
    placeBinSize: sizes.nPositionBins === undefined ? p.placeBinSize : TRACK_CM / sizes.nPositionBins,
  };
}

export function makePreset(name: PresetName, options: PresetOptions = {}): Dataset {
  const sizes = checkedSizes(options.sizes ?? {});
  const info = { ...presetInfo(name), ...sizes };
  const seed = options.seed ?? 42;
  const nFeatures = options.features ?? 2;
  const featureScale = options.featureScale ?? 1;
  if (!Number.isInteger(nFeatures) || nFeatures < 1 || nFeatures > 64) {
    throw new AppError('BAD_ARGUMENT', `features must be an integer from 1 to 64, got ${nFeatures}.`);
  }
  if (!(featureScale > 0) || !Number.isFinite(featureScale)) {
    throw new AppError('BAD_ARGUMENT', `featureScale must be a positive number, got ${featureScale}.`);
  }
  const changed = sizesNote(name, sizes);
  if (name === 'place') {
    const place = simulatePlaceDataset(name, { ...placeOptions(sizes), seed, features: nFeatures, featureScale });
    if (changed) place.notes.push(changed);
    return place;
  }
  const rng = new Rng(seed);
  const placeBinSize = (POSITION_HI - POSITION_LO) / info.nPositionBins;
  const grid = buildPlaceGrid1d(linspace(POSITION_LO, POSITION_HI, info.nPositionBins), placeBinSize);
  const interior = grid.centers.filter((_, j) => grid.isInterior[j]);

  // Every encoding draw happens before any decoding draw, as in the profile script.
  const encoding = Array.from({ length: info.nElectrodes }, () =>
    drawSpikes(rng, info.meanEncodingSpikes, ENCODING_DURATION_S, nFeatures, featureScale));
  const decoding = Array.from({ length: info.nElectrodes }, () =>
    drawSpikes(rng, info.meanDecodingSpikes, DECODING_DURATION_S, nFeatures, featureScale));
  const electrodes: ElectrodeData[] = encoding.map((enc, e) => ({
    name: `e${e}`,
    nFeatures,
    encodingSpikeTimes: enc.times,
    encodingFeatures: enc.features,
    decodingSpikeTimes: decoding[e]!.times,
    decodingFeatures: decoding[e]!.features,
  }));

  return {
    name,
    source: `preset:${name}`,
    positionTime: linspace(0, ENCODING_DURATION_S, info.nTimeEncoding),
    position: linspace(POSITION_LO, POSITION_HI, info.nTimeEncoding),
    positionDims: 1,
    time: linspace(0, DECODING_DURATION_S, info.nTimeDecoding),
    decodingPositionTime: linspace(0, DECODING_DURATION_S, info.nTimeDecoding),
    decodingPosition: linspace(POSITION_LO, POSITION_HI, info.nTimeDecoding),
    electrodes,
    placeBinCenters: interior,
    placeGrid: { centers: grid.centers, interior: Uint8Array.from(grid.isInterior, (v) => (v ? 1 : 0)) },
    params: { positionStd: DEFAULT_POSITION_STD, waveformStd: DEFAULT_WAVEFORM_STD, blockSize: DEFAULT_BLOCK_SIZE, placeBinSize },
    notes: [
      `synthetic preset '${name}', seed ${seed}, ${nFeatures} features, feature scale ${featureScale}`,
      `grid built from place_bin_size ${placeBinSize} over linspace(0, 100, ${info.nPositionBins}): ${interior.length} interior bins`,
      'drawn with the profiler\'s own random stream: same distributions as the profile script, not the same numbers',
      ...(changed ? [changed] : []),
    ],
  };
}
