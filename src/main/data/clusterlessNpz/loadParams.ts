/**
 * Kernel widths and block size: the `params` JSON (uint8 UTF-8 bytes or a string), overridden by the
 * `position_std` / `waveform_std` arrays, else the spec's defaults. Each choice is written to the notes.
 */
import type { KdeParams } from '../../../shared/dataset';
import { DEFAULT_BLOCK_SIZE, DEFAULT_POSITION_STD, DEFAULT_WAVEFORM_STD } from '../../engine/model';
import { num, type ArrayReader, type ValidationFindings } from '../validation';

/** non_local_detector's Environment default */
export const DEFAULT_PLACE_BIN_SIZE = 2.0;

type Std = number | number[];

function asStd(v: unknown): Std | undefined {
  const positive = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;
  if (positive(v)) return v;
  if (Array.isArray(v) && v.length > 0 && v.every(positive)) return v.slice();
  return undefined;
}

async function readParamsJson(r: ArrayReader, f: ValidationFindings): Promise<Record<string, unknown>> {
  if (!r.has('params')) return {};
  const a = await r.raw('params');
  if (!a) return {};
  let text: string;
  if (Array.isArray(a.data)) text = a.data.join('');
  else if (a.data instanceof Uint8Array && (a.dtype.kind === 'uint' || a.dtype.kind === 'int')) text = new TextDecoder().decode(a.data);
  else {
    f.error('BAD_ARGUMENT', `'params' must be UTF-8 JSON stored as uint8 bytes or a string; got dtype ${a.dtype.descr}.`, { key: 'params' });
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    f.error('BAD_ARGUMENT', "'params' must hold a JSON object ({\"position_std\": …}).", { key: 'params' });
  } catch (e) {
    f.error('BAD_ARGUMENT', `'params' is not valid JSON (${(e as Error).message}).`, { key: 'params' });
  }
  return {};
}

/** A std from an array key (0-d → scalar, 1-D → list) or from params, or the default. */
async function pickStd(r: ArrayReader, f: ValidationFindings, json: Record<string, unknown>, key: string, fallback: number, notes: string[]): Promise<Std> {
  if (r.has(key)) {
    const a = await r.numeric(key);
    if (!a) return fallback;
    const value = asStd(a.shape.length === 0 ? a.data[0] : Array.from(a.data));
    if (value === undefined || a.shape.length > 1) {
      f.error('BAD_ARGUMENT', `'${key}' must be a positive scalar or a 1-D array of positive values; got ${Array.from(a.data.slice(0, 4), num).join(', ')}.`, { key });
      return fallback;
    }
    notes.push(`${key} ${JSON.stringify(value)} from the '${key}' array`);
    return value;
  }
  if (json[key] !== undefined) {
    const value = asStd(json[key]);
    if (value === undefined) {
      f.error('BAD_ARGUMENT', `params.${key} must be a positive number or a list of positive numbers; got ${JSON.stringify(json[key])}.`, { key: 'params' });
      return fallback;
    }
    notes.push(`${key} ${JSON.stringify(value)} from params`);
    return value;
  }
  notes.push(`${key} ${num(fallback)} (default)`);
  return fallback;
}

export async function readParams(r: ArrayReader, f: ValidationFindings, notes: string[]): Promise<KdeParams> {
  const json = await readParamsJson(r, f);
  const positionStd = await pickStd(r, f, json, 'position_std', DEFAULT_POSITION_STD, notes);
  const waveformStd = await pickStd(r, f, json, 'waveform_std', DEFAULT_WAVEFORM_STD, notes);
  let blockSize = DEFAULT_BLOCK_SIZE;
  if (json.block_size !== undefined) {
    const b = json.block_size;
    if (typeof b === 'number' && Number.isInteger(b) && b > 0) blockSize = b;
    else f.error('BAD_ARGUMENT', `params.block_size must be a positive integer; got ${JSON.stringify(b)}.`, { key: 'params' });
  }
  const params: KdeParams = { positionStd, waveformStd, blockSize };
  if (json.place_bin_size !== undefined) {
    const h = json.place_bin_size;
    if (typeof h === 'number' && Number.isFinite(h) && h > 0) params.placeBinSize = h;
    else f.error('BAD_ARGUMENT', `params.place_bin_size must be a positive number; got ${JSON.stringify(h)}.`, { key: 'params' });
  }
  return params;
}

/** Per-dimension and per-feature widths must fit the data they apply to. */
export function checkParamShapes(f: ValidationFindings, params: KdeParams, positionDims: number, featureCounts: { name: string; nFeatures: number }[]): void {
  const ps = params.positionStd;
  if (Array.isArray(ps) && ps.length !== 1 && ps.length !== positionDims) {
    f.error('BAD_ARGUMENT', `position_std has ${ps.length} values but position has ${positionDims} dimension${positionDims === 1 ? '' : 's'}.`, { key: 'position_std' });
  }
  const ws = params.waveformStd;
  if (Array.isArray(ws)) {
    const bad = featureCounts.find((e) => e.nFeatures !== ws.length);
    if (bad) {
      f.error('E023', `waveform_std has ${ws.length} values (one per feature) but electrode '${bad.name}' has ${bad.nFeatures} features; give a scalar or make every electrode match.`,
        { key: 'waveform_std', electrode: bad.name });
    }
  }
}
