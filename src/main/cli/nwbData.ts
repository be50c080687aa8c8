/**
 * `--data FILE.nwb [--recipe RECIPE.json]` for run and decode: a recipe given on the command line
 * wins over the one saved next to the file and the automatic mapping. Before a run starts, an NWB
 * import whose mapping is ambiguous or whose data is missing ends the command (exit 2) with every
 * problem, each naming file and path.
 */
import { basename, resolve } from 'node:path';
import type { ValidationFinding } from '../../shared/api';
import type { DataSource } from '../../shared/config';
import { AppError, type ErrorCode } from '../../shared/errors';
import { isNwbSource, loadRecipe, RECIPE_SUFFIX } from '../data';
import { scanDataView } from '../service';
import { UsageError } from './cliTypes';

const isRecipe = (path: string): boolean => path.toLowerCase().endsWith(RECIPE_SUFFIX);

/** One error for every blocking finding of a scan, with what to do next (`scanned`: the person just saw the candidates). */
export function mappingError(file: string, findings: ValidationFinding[], scanned = false): AppError {
  const errors = findings.filter((f) => f.severity === 'error');
  const lines = errors.map((f) => `  ${f.code} ${f.message}`);
  const name = basename(file);
  const next = scanned
    ? `Choose in the app's mapping step and apply, or write a recipe (FILE${RECIPE_SUFFIX}) and pass it to run or decode with --recipe.`
    : `See the candidates with 'kde-profiler scan ${name}', then pass --recipe FILE${RECIPE_SUFFIX} (or map it in the app and apply).`;
  return new AppError((errors[0]?.code ?? 'E001') as ErrorCode, `${name}: no mapping to import it with:\n${lines.join('\n')}\n${next}`, { file: name, key: errors[0]?.key });
}

async function withRecipe(data: DataSource, recipeFlag: string, cwd: string): Promise<DataSource> {
  if (data.kind !== 'file' || !isNwbSource(data.path) || isRecipe(data.path)) {
    throw new UsageError(`--recipe applies to an NWB/HDF5 file given with --data (.nwb, .h5, .hdf5)`);
  }
  const recipePath = resolve(cwd, recipeFlag);
  if (!isRecipe(recipePath)) throw new UsageError(`--recipe: '${recipeFlag}' must be a recipe file named *${RECIPE_SUFFIX}`);
  const recipe = await loadRecipe(recipePath);
  const dataPath = resolve(cwd, data.path);
  if (!recipe.files.includes(dataPath)) {
    throw new AppError('BAD_ARGUMENT', `${basename(recipePath)} maps ${recipe.files.map((f) => basename(f)).join(', ')}, not ${basename(dataPath)}: pass the recipe written for this file.`,
      { file: basename(recipePath), key: 'files' });
  }
  return { kind: 'file', path: recipePath };
}

/** The data source a run reads: the --recipe file when given; for NWB, only once a mapping exists. */
export async function resolveNwbData(data: DataSource, recipeFlag: string | undefined, cwd: string): Promise<DataSource> {
  const source = recipeFlag !== undefined ? await withRecipe(data, recipeFlag, cwd) : data;
  if (source.kind !== 'file' || !isNwbSource(source.path)) return source;
  const path = resolve(cwd, source.path);
  const view = await scanDataView([path]);
  if (!view.recipe) throw mappingError(path, view.findings);
  return { kind: 'file', path };
}
