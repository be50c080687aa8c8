/**
 * `kde-profiler scan FILE.nwb [FILE2.nwb …]`: what an NWB/HDF5 import offers (read lazily: shapes,
 * attributes, small index arrays) and the recipe it would use. Exits 2 when the mapping is
 * ambiguous or data is missing, naming every problem; --save-recipe keeps the recipe next to the
 * first file so `run --data FILE.nwb` and the app use it. `scan FILE.npz` says what the file is and
 * checks it as a run would (npzScan.ts).
 */
import { resolve } from 'node:path';
import { saveRecipeFor, scanDataView } from '../service';
import { isNwbSource } from '../data';
import { boolFlag, parseFlags } from './args';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { scanNpz } from './npzScan';
import { mappingError } from './nwbData';
import { scanViewText } from './scanText';

const USAGE = 'kde-profiler scan FILE.nwb [FILE2.nwb …] [--json] [--save-recipe] | scan FILE.npz [--json]';
const MAX_FILES = 256;
const OPTIONS = { json: { type: 'boolean' }, 'save-recipe': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, OPTIONS, MAX_FILES);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (flags.positionals.length === 0) throw new UsageError('name at least one .nwb/.h5 file (or a saved .recipe.json), or one .npz, to scan');
  const paths = flags.positionals.map((p) => resolve(io.cwd, p));
  const npz = paths.filter((p) => !isNwbSource(p));
  if (npz.length > 0) {
    if (paths.length > 1) throw new UsageError(`scan one .npz at a time (an .npz is a whole recording), or NWB/HDF5 files together; got ${flags.positionals.join(', ')}`);
    if (boolFlag(flags, 'save-recipe')) throw new UsageError('--save-recipe: an .npz has no mapping to save; run and decode read it as it is');
    return scanNpz(npz[0]!, io, boolFlag(flags, 'json'));
  }
  const view = await scanDataView(paths);
  io.stdout.write(boolFlag(flags, 'json') ? `${JSON.stringify(view, null, 2)}\n` : scanViewText(view));
  for (const f of view.findings.filter((x) => x.severity === 'warning')) io.stderr.write(`warning: ${f.message}\n`);
  if (!view.recipe) {
    io.stderr.write(`kde-profiler scan: ${mappingError(paths[0]!, view.findings, true).message}\n`);
    if (boolFlag(flags, 'save-recipe')) io.stderr.write('no recipe was saved\n');
    return EXIT.usage;
  }
  if (boolFlag(flags, 'save-recipe')) {
    if (view.recipeOrigin === 'saved') {
      io.stderr.write(`the recipe is already saved: ${view.savedRecipePath}\n`);
    } else {
      const { recipePath } = await saveRecipeFor(view.recipe, view.recipe.files[0]);
      io.stderr.write(`recipe saved: ${recipePath}\n`);
    }
  }
  return EXIT.ok;
}

export const scanCommand: CliCommand = {
  summary: 'list what NWB/HDF5 files offer and the mapping an import would use; say what an .npz is and check it',
  usage: USAGE,
  flags: OPTIONS,
  run: execute,
};
