/**
 * The NWB mapping calls behind ProfilerApi (scanData, saveRecipe, exportDataAsNpz) and the dataset
 * scale of an inspection. Every argument arrives untrusted from the page: paths are bounded, absolute
 * strings, files read must be regular files, recipes go through parseRecipe, and files are written
 * only as .npz or next to the data file; an existing .npz is replaced only when the call says so.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { DataInspection, ValidationFinding } from '../../../shared/api';
import type { DataSource } from '../../../shared/config';
import { AppError, isAppError } from '../../../shared/errors';
import type { NpzExport, NwbRecipe, NwbScanView, SavedRecipe } from '../../../shared/nwb';
import { datasetScale } from '../../analysis';
import {
  entryAt, existsError, loadDataset, loadRecipe, notAFileError, parseRecipe, PRESET_INFO, recipePathFor, regularFileStats, saveRecipe,
  scanNwbInWorker, writeClusterlessNpz,
} from '../../data';
import { absolutePath, boundedString, dataSource, MAX_PATH_CHARS, npzExportOptions } from '../validate';

/** files of one import: one per tetrode is common, 128 electrodes is a large recording */
export const MAX_SCAN_FILES = 256;

const NWB_DATA = /\.(nwb|h5|hdf5)$/i;
const RECIPE = /\.recipe\.json$/i;

function bad(key: string, message: string, hint?: string): AppError {
  return new AppError('BAD_ARGUMENT', `${key}: ${message}`, { key, ...(hint ? { hint } : {}) });
}

function sameFiles(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((p, i) => resolve(p) === resolve(b[i]!));
}

interface ScanRequest {
  files: string[];
  saved: NwbRecipe | null;
  savedPath: string | null;
  /** a saved recipe that could not be used, and why */
  unusable?: ValidationFinding;
}

/** The files to scan and the recipe saved for them: a recipe path names its files; one data file uses its saved recipe's files. */
async function scanRequest(paths: string[]): Promise<ScanRequest> {
  if (paths.length === 1 && RECIPE.test(paths[0]!)) {
    const recipe = await loadRecipe(paths[0]!);
    return { files: recipe.files, saved: recipe, savedPath: paths[0]! };
  }
  for (const p of paths) {
    if (!NWB_DATA.test(p)) throw bad('paths', `${basename(p)} is not an NWB/HDF5 file (.nwb, .h5, .hdf5) or a recipe (.recipe.json).`);
  }
  const savedPath = recipePathFor(paths[0]!);
  if (!existsSync(savedPath)) return { files: paths, saved: null, savedPath: null };
  let saved: NwbRecipe;
  try {
    saved = await loadRecipe(savedPath);
  } catch (e) {
    if (!isAppError(e)) throw e;
    // a broken recipe must not stop the person from mapping the file again
    const unusable: ValidationFinding = {
      code: e.code, severity: 'warning', key: basename(savedPath),
      message: `${basename(savedPath)} cannot be used (${e.message}); map the file again and apply to replace it.`,
    };
    return { files: paths, saved: null, savedPath, unusable };
  }
  // one data file stands for the import its saved recipe describes (several files, one per tetrode)
  if (paths.length === 1 || sameFiles(saved.files, paths)) return { files: saved.files, saved, savedPath };
  return { files: paths, saved: null, savedPath };
}

/** ProfilerApi.scanData: candidates of every file and the recipe to start from. */
export async function scanDataView(raw: unknown): Promise<NwbScanView> {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_SCAN_FILES) {
    throw bad('paths', `expected a list of 1 to ${MAX_SCAN_FILES} file paths`);
  }
  const paths = raw.map((p, i) => resolve(absolutePath(p, `paths[${i}]`)));
  if (new Set(paths).size !== paths.length) throw bad('paths', 'a file is listed twice');
  const { files, saved, savedPath, unusable } = await scanRequest(paths);
  for (const f of files) await regularFileStats(f);
  // h5wasm reads block: the scan runs in a worker with a time and memory budget, so a hostile file costs only this call
  const { scans, auto, findings } = await scanNwbInWorker(files);
  if (unusable) findings.unshift(unusable);
  if (saved) {
    // the saved recipe wins; what the automatic mapping thought of the files is no longer news
    return { scans, recipe: saved, recipeOrigin: 'saved', savedRecipePath: savedPath, findings: findings.filter((f) => f.severity !== 'error') };
  }
  return { scans, recipe: auto, recipeOrigin: auto ? 'auto' : null, savedRecipePath: savedPath, findings };
}

/** ProfilerApi.saveRecipe: the recipe is checked, its files must exist and include the data file. */
export async function saveRecipeFor(rawRecipe: unknown, rawDataPath: unknown): Promise<SavedRecipe> {
  const dataPath = resolve(absolutePath(rawDataPath, 'dataPath'));
  if (!NWB_DATA.test(dataPath)) throw bad('dataPath', `${basename(dataPath)} is not an NWB/HDF5 file (.nwb, .h5, .hdf5); the recipe is saved next to the data file.`);
  const recipe = parseRecipe(rawRecipe);
  // a recipe's own files may be relative: to the data file's folder, never to the server's
  for (const [i, f] of recipe.files.entries()) boundedString(f, `recipe.files[${i}]`, MAX_PATH_CHARS);
  const dir = dirname(dataPath);
  recipe.files = recipe.files.map((f) => (isAbsolute(f) ? f : resolve(dir, f)));
  if (!recipe.files.includes(dataPath)) {
    throw bad('recipe.files', `the recipe maps ${recipe.files.map((f) => basename(f)).join(', ')} but is to be saved for ${basename(dataPath)}; list that file in recipe.files.`);
  }
  for (const f of recipe.files) await regularFileStats(f);
  const recipePath = recipePathFor(dataPath);
  try {
    await saveRecipe(recipe, recipePath);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new AppError('IO', `cannot write ${recipePath} (${code}): the data file's folder must be writable to keep a recipe next to it.`, { file: basename(recipePath) });
  }
  return { recipePath };
}

/** `x.nwb.recipe.json` → its first data file; `x.nwb` and `x.npz` stand for themselves */
async function dataFileOf(path: string): Promise<string> {
  return RECIPE.test(path) ? (await loadRecipe(path)).files[0]! : path;
}

/** next to the data file, named so it never replaces the input: `x.nwb` → `x.clusterless.npz` */
export function defaultNpzPath(dataFile: string): string {
  const stem = basename(dataFile).replace(/\.(nwb|h5|hdf5|npz)$/i, '');
  return join(dirname(dataFile), `${stem}.clusterless.npz`);
}

async function folderOf(out: string): Promise<void> {
  let folder;
  try {
    folder = await stat(dirname(out));
  } catch {
    folder = null;
  }
  if (!folder?.isDirectory()) throw new AppError('NOT_FOUND', `the folder ${dirname(out)} does not exist: create it or choose another output path.`, { file: basename(out) });
}

/** What already sits at the output: nothing, or a file the call says may be replaced. */
async function mayWrite(out: string, overwrite: boolean): Promise<void> {
  const existing = await entryAt(out);
  if (!existing) return;
  if (!existing.isFile() && !existing.isSymbolicLink()) throw notAFileError(out, existing, 'choose another output path');
  if (!overwrite) throw existsError(out);
}

async function exportTarget(source: DataSource, rawOut: unknown, overwrite: boolean): Promise<string> {
  let out: string;
  if (rawOut === null) {
    if (source.kind === 'preset') throw bad('outPath', 'a preset has no data file to write next to; give an output path ending in .npz.');
    out = defaultNpzPath(await dataFileOf(source.path));
  } else {
    out = resolve(absolutePath(rawOut, 'outPath'));
    if (!/\.npz$/i.test(out)) throw bad('outPath', `${basename(out)}: the output must be a .npz file.`);
    if (source.kind === 'file' && resolve(source.path) === out) throw bad('outPath', 'the output would replace the input file; choose another name.');
  }
  await folderOf(out);
  await mayWrite(out, overwrite);
  return out;
}

/**
 * ProfilerApi.exportDataAsNpz: loads the source as a run would and writes it as clusterless-npz/1,
 * through a temporary file beside the output that is renamed into place once complete.
 */
export async function exportSourceAsNpz(rawSource: unknown, rawOut: unknown, rawOptions?: unknown): Promise<NpzExport> {
  const source = dataSource(rawSource);
  const { overwrite } = npzExportOptions(rawOptions);
  if (source.kind === 'file') await regularFileStats(source.path);
  const outPath = await exportTarget(source, rawOut, overwrite);
  const dataset = await loadDataset(source);
  try {
    await writeClusterlessNpz(dataset, outPath, { overwrite });
  } catch (e) {
    if (isAppError(e)) throw e;
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new AppError('IO', `cannot write ${outPath} (${code}): check that the folder is writable and has space.`, { file: basename(outPath) });
  }
  return {
    outPath,
    bytes: (await stat(outPath)).size,
    nElectrodes: dataset.electrodes.length,
    nEncodingSpikes: dataset.electrodes.reduce((n, e) => n + e.encodingSpikeTimes.length, 0),
  };
}

/** An inspection with its dataset scale: how it compares with the presets. */
export function withScale(inspection: DataInspection): DataInspection {
  return inspection.summary ? { ...inspection, scale: datasetScale(inspection.summary, PRESET_INFO).sentence } : inspection;
}
