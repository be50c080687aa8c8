/**
 * The legacy dense layout: `multiunits` (T, F, E), NaN where electrode e has no spike in sample t,
 * beside `time` or `position_time` (T,). Converted on import to per-electrode spikes, streaming the
 * member row by row so a multi-gigabyte array never sits in memory whole (W066 says so).
 */
import { isAppError } from '../../../shared/errors';
import { formatBytes } from '../../../shared/format';
import { count, shapeText, type ArrayReader, type NumericArray, type ValidationFindings } from '../validation';
import { parseNpyHeader, type NpyHeader } from '../npz';

export interface DenseElectrode {
  times: NumericArray;
  features: NumericArray;
}

/** a float64 array that grows by doubling */
class Grow {
  data = new Float64Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  take(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

async function readHeader(r: ArrayReader, f: ValidationFindings): Promise<{ header: NpyHeader; first: Uint8Array } | null> {
  const chunks = r.npz.chunks('multiunits', 1 << 20);
  const next = await chunks.next();
  await chunks.return(undefined);
  const first = next.done === true ? new Uint8Array(0) : next.value;
  try {
    return { header: parseNpyHeader(first, { file: r.npz.file, key: 'multiunits' }), first };
  } catch (e) {
    if (!isAppError(e)) throw e;
    f.fromError(e, { key: 'multiunits' });
    return null;
  }
}

async function sampleTimes(r: ArrayReader, f: ValidationFindings, rows: number): Promise<{ key: string; data: Float64Array } | null> {
  for (const key of ['time', 'position_time']) {
    if (!r.has(key)) continue;
    const a = await r.numeric(key);
    if (a && a.shape.length === 1 && a.shape[0] === rows) return { key, data: a.data };
  }
  f.error('E010', `'multiunits' has ${count(rows)} samples (rows) but no 'time' or 'position_time' of that length gives their times.`, { key: 'multiunits' });
  return null;
}

/** (samples, features, electrodes) of a float, C-ordered `multiunits`; null (with a finding) otherwise. */
function denseShape(header: NpyHeader, f: ValidationFindings): [number, number, number] | null {
  const shape = header.shape;
  if (shape.length !== 3 || header.dtype.kind !== 'float') {
    f.error('E022', `'multiunits' must be a float array of shape (T, F, E) (samples × features × electrodes); got ${header.dtype.descr} ${shapeText(shape)}.`, { key: 'multiunits' });
    return null;
  }
  if (header.fortranOrder) {
    f.error('E022', "'multiunits' is stored in Fortran order, which cannot be converted in a stream; re-save it with numpy.ascontiguousarray.", { key: 'multiunits' });
    return null;
  }
  return shape as [number, number, number];
}

/** Converts `multiunits` into one spike list per electrode; null (with findings) when it cannot. */
export async function readLegacyDense(r: ArrayReader, f: ValidationFindings, notes: string[]): Promise<DenseElectrode[] | null> {
  const head = await readHeader(r, f);
  if (!head) return null;
  const { header } = head;
  const shape = denseShape(header, f);
  if (!shape) return null;
  const [rows, nF, nE] = shape;
  const times = await sampleTimes(r, f, rows);
  if (!times) return null;
  f.warn('W066', `multiunits is ${count(rows)} × ${nF} × ${nE} (${formatBytes(rows * nF * nE * 8)} as float64); converting in streaming mode to per-electrode spikes.`, { key: 'multiunits' });
  const item = header.dtype.itemBytes;
  const rowBytes = nF * nE * item;
  const little = !header.bigEndian;
  const spikeTimes = Array.from({ length: nE }, () => new Grow());
  const marks = Array.from({ length: nE }, () => new Grow());
  const row = new Uint8Array(rowBytes);
  const view = new DataView(row.buffer);
  const value = (k: number) => (item === 8 ? view.getFloat64(k * 8, little) : view.getFloat32(k * 4, little));
  let skip = header.dataOffset;
  let filled = 0;
  let t = 0;
  try {
    for await (const chunk of r.npz.chunks('multiunits')) {
      let p = Math.min(skip, chunk.length);
      skip -= p;
      while (p < chunk.length && t < rows) {
        const n = Math.min(rowBytes - filled, chunk.length - p);
        row.set(chunk.subarray(p, p + n), filled);
        filled += n;
        p += n;
        if (filled < rowBytes) break;
        for (let e = 0; e < nE; e++) {
          let any = false;
          for (let j = 0; j < nF && !any; j++) any = !Number.isNaN(value(j * nE + e));
          if (!any) continue;
          spikeTimes[e]!.push(times.data[t]!);
          for (let j = 0; j < nF; j++) marks[e]!.push(value(j * nE + e));
        }
        filled = 0;
        t++;
      }
    }
  } catch (e) {
    if (!isAppError(e)) throw e;
    f.fromError(e, { key: 'multiunits' });
    return null;
  }
  notes.push(`legacy dense multiunits ${count(rows)} × ${nF} × ${nE} converted: ${spikeTimes.map((s) => count(s.length)).join(', ')} spikes per electrode, times from '${times.key}'`);
  return spikeTimes.map((s, e) => {
    const st = s.take();
    return {
      times: { key: `${times.key}`, shape: [st.length], data: st, descr: '<f8' },
      features: { key: `multiunits[:, :, ${e}]`, shape: [st.length, nF], data: marks[e]!.take(), descr: header.dtype.descr },
    };
  });
}
