/**
 * "Export as clusterless-npz/1": writes a Dataset (e.g. one mapped from NWB) with the keys the npz
 * loader reads back to the same arrays. Members are stored float64 .npy, one electrode at a time.
 */
import type { Dataset } from '../../../shared/dataset';
import { encodeNpyBytes, encodeNpyFloat64, encodeNpyStrings, float64Bytes, npyHeader } from './npyEncode';
import { ZipWriter } from './zipWriter';

export const NPZ_FORMAT = 'clusterless-npz/1';

type Member = [name: string, parts: Uint8Array[]];

function f8(name: string, data: Float64Array, shape: number[]): Member {
  return [`${name}.npy`, [npyHeader('<f8', shape), float64Bytes(data)]];
}

function std(name: string, v: number | number[]): Member {
  return Array.isArray(v) ? f8(name, Float64Array.from(v), [v.length]) : [`${name}.npy`, [encodeNpyFloat64([], Float64Array.of(v))]];
}

function* members(ds: Dataset): Generator<Member> {
  const q = ds.positionDims;
  yield ['format.npy', [encodeNpyStrings([NPZ_FORMAT], true)]];
  yield f8('position_time', ds.positionTime, [ds.positionTime.length]);
  yield f8('position', ds.position, [ds.positionTime.length, q]);
  if (ds.decodingPositionTime && ds.decodingPosition) {
    yield f8('decoding_position_time', ds.decodingPositionTime, [ds.decodingPositionTime.length]);
    yield f8('decoding_position', ds.decodingPosition, [ds.decodingPositionTime.length, q]);
  }
  yield f8('time', ds.time, [ds.time.length]);
  yield f8('interior_place_bin_centers', ds.placeBinCenters, [ds.placeBinCenters.length / q, q]);
  if (ds.placeGrid && ds.placeGrid.centers.length === ds.placeGrid.interior.length * q) {
    // the whole grid, which the loader prefers: a posterior keeps the bins off the track as columns of its state space
    // (a grid of other dimensions than the positions is not this dataset's: it is left out, not written truncated)
    yield f8('place_bin_centers', ds.placeGrid.centers, [ds.placeGrid.interior.length, q]);
    yield f8('is_track_interior', Float64Array.from(ds.placeGrid.interior), [ds.placeGrid.interior.length]);
  }
  const separate = ds.electrodes.some((e) => e.decodingSpikeTimes !== e.encodingSpikeTimes || e.decodingFeatures !== e.encodingFeatures);
  for (let i = 0; i < ds.electrodes.length; i++) {
    const e = ds.electrodes[i]!;
    yield f8(`spike_times_${i}`, e.encodingSpikeTimes, [e.encodingSpikeTimes.length]);
    yield f8(`spike_waveform_features_${i}`, e.encodingFeatures, [e.encodingSpikeTimes.length, e.nFeatures]);
    if (separate) {
      yield f8(`decoding_spike_times_${i}`, e.decodingSpikeTimes, [e.decodingSpikeTimes.length]);
      yield f8(`decoding_spike_waveform_features_${i}`, e.decodingFeatures, [e.decodingSpikeTimes.length, e.nFeatures]);
    }
  }
  if (ds.electrodes.length > 0) yield ['electrode_names.npy', [encodeNpyStrings(ds.electrodes.map((e) => e.name))]];
  yield std('position_std', ds.params.positionStd);
  yield std('waveform_std', ds.params.waveformStd);
  const params: Record<string, number> = { block_size: ds.params.blockSize };
  if (ds.params.placeBinSize !== undefined) params.place_bin_size = ds.params.placeBinSize;
  yield ['params.npy', [encodeNpyBytes(new TextEncoder().encode(JSON.stringify(params)))]];
  const x = ds.expected;
  const nBins = ds.placeBinCenters.length / q;
  if (x?.occupancy) yield f8('occupancy', x.occupancy, [x.occupancy.length]);
  if (x?.meanRates) yield f8('mean_rates', x.meanRates, [x.meanRates.length]);
  if (x?.summedGroundProcessIntensity) yield f8('summed_ground_process_intensity', x.summedGroundProcessIntensity, [x.summedGroundProcessIntensity.length]);
  if (x?.logLikelihoodNonlocal) yield f8('log_likelihood_nonlocal', x.logLikelihoodNonlocal, [x.logLikelihoodNonlocal.length / nBins, nBins]);
  if (x?.logLikelihoodLocal) yield f8('log_likelihood_local', x.logLikelihoodLocal, [x.logLikelihoodLocal.length, 1]);
  yield ['meta_json.npy', [encodeNpyStrings([JSON.stringify({ exported_from: ds.source, name: ds.name, notes: ds.notes })], true)]];
}

export interface NpzWriteOptions {
  /** replace a file already at the path; without it such a file stays and the write fails with EXISTS */
  overwrite?: boolean;
}

/** Writes the dataset to `path` (atomically: nothing appears there if writing fails). */
export async function writeClusterlessNpz(ds: Dataset, path: string, options: NpzWriteOptions = {}): Promise<void> {
  const zip = await ZipWriter.create(path);
  try {
    for (const [name, parts] of members(ds)) await zip.add(name, parts);
    await zip.finish(options);
  } catch (e) {
    await zip.abort();
    throw e;
  }
}
