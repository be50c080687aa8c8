/**
 * `kde-profiler validate FILE`: a data file checked as `run` and `decode` read it, every finding
 * listed (code, key, electrode, what is wrong, what to do), where a refused run's one line names
 * only the first few. Exits 2 when a run would refuse the file, 0 when it would read it.
 */
import { basename, resolve } from 'node:path';
import type { DataInspection } from '../../shared/api';
import type { DataSource } from '../../shared/config';
import { inspectData } from '../data';
import { boolFlag, parseFlags, stringFlag } from './args';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { inspectionJson, inspectionText, isValid, problemCount, shellWord } from './dataProblems';
import { resolveNwbData } from './nwbData';

const USAGE = 'kde-profiler validate FILE.npz|FILE.nwb [--recipe FILE.recipe.json] [--json]';
const OPTIONS = { recipe: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

/** What to do next: how to use the file, or that it is refused and why. */
export function verdictLine(inspection: DataInspection, path: string): string {
  if (isValid(inspection)) return `\nuse it: kde-profiler run --data ${shellWord(path)}, or kde-profiler decode --data ${shellWord(path)} --out DIR\n`;
  const errors = inspection.findings.some((f) => f.severity === 'error');
  const why = errors ? `${problemCount(inspection)}, listed above with what to do` : 'no recording could be read from it';
  return `kde-profiler: ${path} is refused by run and decode (${why})\n`;
}

/** Checks one data source and prints what it found; the exit code says whether a run would read it. */
export async function printInspection(source: Extract<DataSource, { kind: 'file' }>, io: CliIo, json: boolean, extra: Record<string, unknown> = {}): Promise<number> {
  const inspection = await inspectData(source);
  io.stdout.write(json ? inspectionJson(inspection, extra) : inspectionText(inspection, basename(source.path)));
  // how to use it is the answer, on stdout; a refusal is an error, on stderr
  if (!json) (isValid(inspection) ? io.stdout : io.stderr).write(verdictLine(inspection, source.path));
  return isValid(inspection) ? EXIT.ok : EXIT.usage;
}

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, OPTIONS, 1);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const file = flags.positionals[0];
  if (file === undefined) throw new UsageError('name the data file to check: a clusterless-npz/1 .npz, or an .nwb/.h5 file (or its .recipe.json)');
  if (file.startsWith('preset:')) throw new UsageError(`${file} is generated, and always valid: validate checks a data file`);
  // an NWB file without a mapping ends here, with every problem of the mapping
  const source = await resolveNwbData({ kind: 'file', path: resolve(io.cwd, file) }, stringFlag(flags, 'recipe'), io.cwd);
  if (source.kind !== 'file') throw new UsageError(`${file}: expected a data file`);
  return printInspection(source, io, boolFlag(flags, 'json'));
}

export const validateCommand: CliCommand = {
  summary: 'check a data file as run and decode read it, listing every problem and what to do',
  usage: USAGE,
  flags: OPTIONS,
  run: execute,
};
