/**
 * The decoding grid of a .npz — `time` (bin starts), or `time_bin_edges` (K+1 edges), never both
 * (E050), else the position timestamps — and the `is_training` encoding mask.
 */
import { count, shapeText, type ArrayReader, type ValidationFindings } from '../validation';
import { checkTimeGrid } from './loadPosition';

export interface DecodingGrid {
  time: Float64Array;
  /** the key it came from, for messages */
  key: string;
}

export async function readDecodingGrid(
  r: ArrayReader, f: ValidationFindings, fallback: Float64Array | null, fallbackKey: string, notes: string[],
): Promise<DecodingGrid | null> {
  if (r.has('time') && r.has('time_bin_edges')) {
    f.error('E050', "both 'time' and 'time_bin_edges' are given; give one: 'time' (K bin starts) or 'time_bin_edges' (K + 1 edges).", { key: 'time_bin_edges' });
    return null;
  }
  for (const key of ['time', 'time_bin_edges']) {
    if (!r.has(key)) continue;
    const a = await r.numeric(key);
    if (!a || !checkTimeGrid(f, a)) return null;
    if (key === 'time_bin_edges') {
      // As edges, row r collects [e_r, e_{r+1}); the extra last row is structurally spike-free (kde-spec §4.4).
      notes.push(`decoding rows are the ${count(a.data.length)} time_bin_edges: rows 0..${count(a.data.length - 2)} are its ${count(a.data.length - 1)} bins, the last row is structurally spike-free (kde-spec §4.4)`);
    }
    return { time: a.data, key };
  }
  if (!fallback) return null;
  notes.push(`no 'time' array: decoding rows are the ${fallbackKey} samples`);
  return { time: fallback, key: fallbackKey };
}

/** `is_training` (T,) bool aligned with position_time; E010 when its length differs */
export async function readIsTraining(r: ArrayReader, f: ValidationFindings, nSamples: number, notes: string[]): Promise<Uint8Array | undefined> {
  if (!r.has('is_training')) return undefined;
  const a = await r.numeric('is_training', undefined, true);
  if (!a) return undefined;
  if (a.shape.length !== 1 || a.shape[0] !== nSamples) {
    f.error('E010', `'is_training' has shape ${shapeText(a.shape)} but 'position_time' has ${count(nSamples)} samples; it must be (T,) with one flag per sample.`, { key: 'is_training' });
    return undefined;
  }
  const mask = Uint8Array.from(a.data, (v) => (v !== 0 ? 1 : 0));
  const used = mask.reduce((s, v) => s + v, 0);
  notes.push(`is_training: the encoding model is fit on ${count(used)} of ${count(nSamples)} position samples`);
  return mask;
}
