/**
 * Writes a simulated recording as a clusterless-npz/1 file (shared/spec/data-format.md) for
 * scripts/make-recording.ts, on the linear track or in the open field alike. The electrodes are
 * drawn and written one at a time, so memory stays bounded whatever the spike count; the file is
 * written as the zip goes, and removed if anything fails.
 */
import {
  encodeNpyBytes, encodeNpyFloat64, encodeNpyStrings, float32Bytes, float64Bytes, NPZ_FORMAT, npyHeader, PLACE_POSITION_STD_CM,
  PLACE_WAVEFORM_STD, ZipWriter,
} from '../src/main/data';
import type { TetrodeSpikes } from '../src/main/data/presets/placeSimulation';

export interface RecordingParts {
  time: Float64Array;
  /** (n × dims) row-major, cm */
  position: Float64Array;
  dims: 1 | 2;
  /** spikes per electrode, in the order `electrodes` yields them */
  counts: number[];
  electrodes: Iterable<TetrodeSpikes>;
  features: number;
  binCm: number;
  /** write `time` as the position timestamps of the recording's last fraction, so the decoding rows cover only that window */
  decodeLast: number | null;
  /** entries only this kind of recording has (the open field's place grid), written after the kernel widths */
  extra: [string, Uint8Array[]][];
  meta: object;
}

async function writeHeader(zip: ZipWriter, r: RecordingParts): Promise<void> {
  const n = r.time.length;
  await zip.add('format.npy', [encodeNpyStrings([NPZ_FORMAT], true)]);
  await zip.add('position_time.npy', [npyHeader('<f8', [n]), float64Bytes(r.time)]);
  await zip.add('position.npy', [npyHeader('<f8', [n, r.dims]), float64Bytes(r.position)]);
  await zip.add('position_units.npy', [encodeNpyStrings(['cm'], true)]);
  if (r.dims === 2) await zip.add('position_names.npy', [encodeNpyStrings(['x', 'y'])]);
  if (r.decodeLast !== null) {
    const window = r.time.subarray(Math.floor(n * (1 - r.decodeLast)));
    await zip.add('time.npy', [npyHeader('<f8', [window.length]), float64Bytes(window)]);
  }
  await zip.add('electrode_names.npy', [encodeNpyStrings(r.counts.map((_, e) => `tet${String(e + 1).padStart(2, '0')}`))]);
  await zip.add('feature_names.npy', [encodeNpyStrings(Array.from({ length: r.features }, (_, j) => `amp_ch${j}`))]);
  await zip.add('position_std.npy', [encodeNpyFloat64([], Float64Array.of(PLACE_POSITION_STD_CM))]);
  await zip.add('waveform_std.npy', [encodeNpyFloat64([], Float64Array.of(PLACE_WAVEFORM_STD))]);
  await zip.add('params.npy', [encodeNpyBytes(new TextEncoder().encode(JSON.stringify({ place_bin_size: r.binCm, block_size: 100 })))]);
  for (const [name, chunks] of r.extra) await zip.add(name, chunks);
}

export async function writeRecording(out: string, r: RecordingParts): Promise<void> {
  const zip = await ZipWriter.create(out);
  try {
    await writeHeader(zip, r);
    let e = 0;
    for (const { times, marks } of r.electrodes) {
      await zip.add(`spike_times_${e}.npy`, [npyHeader('<f8', [times.length]), float64Bytes(times)]);
      await zip.add(`spike_waveform_features_${e}.npy`, [npyHeader('<f4', [times.length, r.features]), float32Bytes(marks)]);
      process.stderr.write(`electrode ${++e}/${r.counts.length}: ${times.length} spikes\n`);
    }
    await zip.add('meta_json.npy', [encodeNpyStrings([JSON.stringify(r.meta)], true)]);
    await zip.finish();
  } catch (err) {
    await zip.abort();
    throw err;
  }
}
