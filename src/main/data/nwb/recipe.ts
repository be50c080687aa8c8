/**
 * The NWB mapping as data: which position series and columns, which tables are electrodes, which
 * columns are features, and the decoding bins. Saved as a small JSON "recipe" next to the file, so a
 * re-import is one step; checked field by field when read, since people edit these by hand.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import type { KdeParams } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import {
  RECIPE_FORMAT, RECIPE_SUFFIX, type BinChoice, type ElectrodeChoice, type GridChoice, type NwbRecipe, type PositionChoice, type SpikeSource,
} from '../../../shared/nwb';
import { readRegularText } from '../files';

// the recipe's types cross the process boundary (the UI builds recipes), so they live in shared/
export { RECIPE_FORMAT, RECIPE_SUFFIX };
export type { BinChoice, ElectrodeChoice, GridChoice, NwbRecipe, PositionChoice, SpikeSource };

function bad(where: string, what: string): AppError {
  return new AppError('BAD_ARGUMENT', `recipe ${where}: ${what}`, { key: where, hint: 'Fix the recipe file, or delete it to map the file again.' });
}

type Obj = Record<string, unknown>;

function obj(v: unknown, where: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad(where, `expected an object, got ${JSON.stringify(v)}`);
  return v as Obj;
}

function str(v: unknown, where: string): string {
  if (typeof v !== 'string' || v.length === 0) throw bad(where, `expected a non-empty string, got ${JSON.stringify(v)}`);
  return v;
}

function int(v: unknown, where: string, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) throw bad(where, `expected an integer in 0..${max}, got ${JSON.stringify(v)}`);
  return v;
}

function positive(v: unknown, where: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw bad(where, `expected a positive number, got ${JSON.stringify(v)}`);
  return v;
}

function optional<T>(o: Obj, key: string, fn: (v: unknown, where: string) => T, where: string): T | undefined {
  return o[key] === undefined ? undefined : fn(o[key], `${where}.${key}`);
}

function ints(v: unknown, where: string): number[] {
  if (!Array.isArray(v) || v.length === 0) throw bad(where, `expected a non-empty list of indices, got ${JSON.stringify(v)}`);
  return v.map((x, i) => int(x, `${where}[${i}]`));
}

function bool(v: unknown, where: string): boolean {
  if (typeof v !== 'boolean') throw bad(where, `expected true or false, got ${JSON.stringify(v)}`);
  return v;
}

function oneOf<T extends string>(v: unknown, where: string, allowed: readonly T[]): T {
  if (!allowed.includes(v as T)) throw bad(where, `expected one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
  return v as T;
}

function parsePosition(v: unknown, where: string, nFiles: number): PositionChoice {
  const o = obj(v, where);
  const out: PositionChoice = { file: int(o.file ?? 0, `${where}.file`, nFiles - 1), path: str(o.path, `${where}.path`) };
  const columns = optional(o, 'columns', ints, where);
  if (columns && columns.length > 2) throw bad(`${where}.columns`, 'at most 2 columns (x, y) can be decoded');
  if (columns) out.columns = columns;
  const ac = optional(o, 'applyConversion', bool, where);
  if (ac !== undefined) out.applyConversion = ac;
  const cm = optional(o, 'toCm', bool, where);
  if (cm !== undefined) out.toCm = cm;
  const flip = optional(o, 'flipY', bool, where);
  if (flip !== undefined) out.flipY = flip;
  return out;
}

function parseSource(v: unknown, where: string, nFiles: number): SpikeSource {
  const o = obj(v, where);
  const kind = oneOf(o.kind, `${where}.kind`, ['units', 'featureExtraction', 'spikeEventSeries'] as const);
  const file = int(o.file ?? 0, `${where}.file`, nFiles - 1);
  const path = str(o.path, `${where}.path`);
  const features = optional(o, 'features', ints, where);
  const extra = features ? { features } : {};
  if (kind === 'units') return { kind, file, path, rows: ints(o.rows, `${where}.rows`), column: str(o.column, `${where}.column`), ...extra };
  if (kind === 'featureExtraction') return { kind, file, path, ...extra };
  const s: SpikeSource = { kind, file, path, ...extra };
  const sign = o.peakSign === undefined ? undefined : oneOf(o.peakSign, `${where}.peakSign`, ['neg', 'pos', 'abs'] as const);
  if (sign) s.peakSign = sign;
  const align = optional(o, 'alignSample', int, where);
  if (align !== undefined) s.alignSample = align;
  const uv = optional(o, 'toMicrovolts', bool, where);
  if (uv !== undefined) s.toMicrovolts = uv;
  return s;
}

function parseBins(v: unknown, nFiles: number): BinChoice {
  const o = obj(v ?? { kind: 'position' }, 'bins');
  const kind = oneOf(o.kind, 'bins.kind', ['position', 'uniform', 'dataset'] as const);
  if (kind === 'position') return { kind };
  if (kind === 'uniform') {
    const b: BinChoice = { kind, stepS: positive(o.stepS, 'bins.stepS') };
    if (o.start !== undefined) b.start = Number(o.start);
    if (o.stop !== undefined) b.stop = Number(o.stop);
    if ((b.start !== undefined && !Number.isFinite(b.start)) || (b.stop !== undefined && !Number.isFinite(b.stop))) throw bad('bins', 'start and stop must be numbers');
    return b;
  }
  return { kind, file: int(o.file ?? 0, 'bins.file', nFiles - 1), path: str(o.path, 'bins.path'), ...(o.edges === true ? { edges: true } : {}) };
}

function parseGrid(v: unknown, nFiles: number): GridChoice {
  const o = obj(v, 'grid');
  const kind = oneOf(o.kind, 'grid.kind', ['build', 'dataset'] as const);
  if (kind === 'build') return { kind, placeBinSize: positive(o.placeBinSize, 'grid.placeBinSize') };
  const g: GridChoice = { kind, file: int(o.file ?? 0, 'grid.file', nFiles - 1), centers: str(o.centers, 'grid.centers') };
  if (o.interior !== undefined) g.interior = str(o.interior, 'grid.interior');
  return g;
}

function parseStd(v: unknown, where: string): number | number[] {
  if (Array.isArray(v) && v.length > 0) return v.map((x, i) => positive(x, `${where}[${i}]`));
  return positive(v, where);
}

function parseParams(v: unknown): Partial<KdeParams> {
  const o = obj(v, 'params');
  const p: Partial<KdeParams> = {};
  if (o.positionStd !== undefined) p.positionStd = parseStd(o.positionStd, 'params.positionStd');
  if (o.waveformStd !== undefined) p.waveformStd = parseStd(o.waveformStd, 'params.waveformStd');
  if (o.blockSize !== undefined) p.blockSize = Math.max(1, int(o.blockSize, 'params.blockSize'));
  if (o.placeBinSize !== undefined) p.placeBinSize = positive(o.placeBinSize, 'params.placeBinSize');
  return p;
}

function parseIntervals(v: unknown): [number, number][] {
  if (!Array.isArray(v) || v.length === 0) throw bad('encodingIntervals', `expected a non-empty list of [start, stop] pairs, got ${JSON.stringify(v)}`);
  return v.map((x, i) => {
    const ok = Array.isArray(x) && x.length === 2 && x.every((t) => typeof t === 'number' && Number.isFinite(t)) && x[0] < x[1];
    if (!ok) throw bad(`encodingIntervals[${i}]`, `expected [start, stop] seconds with start < stop, got ${JSON.stringify(x)}`);
    return [x[0], x[1]] as [number, number];
  });
}

/** Checks a recipe read from JSON; throws BAD_ARGUMENT naming the first bad field. */
export function parseRecipe(raw: unknown): NwbRecipe {
  const o = obj(raw, '(top level)');
  if (o.format !== RECIPE_FORMAT) throw bad('format', `expected "${RECIPE_FORMAT}", got ${JSON.stringify(o.format)}`);
  if (!Array.isArray(o.files) || o.files.length === 0) throw bad('files', 'expected a non-empty list of file paths');
  const files = o.files.map((f, i) => str(f, `files[${i}]`));
  const n = files.length;
  if (!Array.isArray(o.electrodes) || o.electrodes.length === 0) throw bad('electrodes', 'expected a non-empty list');
  const electrodes = o.electrodes.map((e, i): ElectrodeChoice => {
    const eo = obj(e, `electrodes[${i}]`);
    const c: ElectrodeChoice = { encoding: parseSource(eo.encoding, `electrodes[${i}].encoding`, n) };
    if (eo.name !== undefined) c.name = str(eo.name, `electrodes[${i}].name`);
    if (eo.decoding !== undefined) c.decoding = parseSource(eo.decoding, `electrodes[${i}].decoding`, n);
    return c;
  });
  const recipe: NwbRecipe = { format: RECIPE_FORMAT, files, position: parsePosition(o.position, 'position', n), electrodes, bins: parseBins(o.bins, n) };
  if (o.decodingPosition !== undefined) recipe.decodingPosition = parsePosition(o.decodingPosition, 'decodingPosition', n);
  if (o.grid !== undefined) recipe.grid = parseGrid(o.grid, n);
  if (o.params !== undefined) recipe.params = parseParams(o.params);
  if (o.encodingIntervals !== undefined) recipe.encodingIntervals = parseIntervals(o.encodingIntervals);
  return recipe;
}

/** where the recipe of a data file is kept: `session.nwb` → `session.nwb.recipe.json` */
export function recipePathFor(dataPath: string): string {
  return `${dataPath}${RECIPE_SUFFIX}`;
}

/** Writes the recipe with file paths relative to its folder (atomically: temp file, then rename). */
export async function saveRecipe(recipe: NwbRecipe, recipePath: string): Promise<void> {
  const dir = dirname(resolve(recipePath));
  const files = recipe.files.map((f) => relative(dir, resolve(f)) || basename(f));
  const text = `${JSON.stringify({ ...recipe, files }, null, 2)}\n`;
  // a fresh name created exclusively: never an old file or a pipe that happens to sit there
  const tmp = `${recipePath}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, text, { encoding: 'utf8', flag: 'wx' });
    await rename(tmp, recipePath);
  } catch (e) {
    // EEXIST: something else holds that name, and it is not ours to remove
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') await rm(tmp, { force: true });
    throw e;
  }
}

/** Reads and checks a recipe; its files come back resolved against the recipe's folder. */
export async function loadRecipe(recipePath: string): Promise<NwbRecipe> {
  const text = await readRegularText(recipePath);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new AppError('BAD_ARGUMENT', `${basename(recipePath)}: the recipe is not valid JSON (${(e as Error).message}).`, { file: basename(recipePath) });
  }
  const recipe = parseRecipe(raw);
  const dir = dirname(resolve(recipePath));
  recipe.files = recipe.files.map((f) => (isAbsolute(f) ? f : resolve(dir, f)));
  return recipe;
}
