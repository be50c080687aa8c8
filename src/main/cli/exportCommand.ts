/**
 * `kde-profiler export RUN --format trace|trace-json|json|md|csv [--out FILE]`, and
 * `kde-profiler export RUN_A RUN_B … --format perfetto-bundle [--align start|wall-clock]`: one ZIP
 * that ui.perfetto.dev opens as one timeline, each run a machine of its own.
 */
import { resolve } from 'node:path';
import { boolFlag, parseFlags, stringFlag } from './args';
import { withService } from './cliService';
import { checkNewOutputFile } from './outputChecks';
import { writeOutputFile } from './outputFiles';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { BUNDLE_ALIGNMENTS, type BundleAlignment } from '../../shared/api';
import { RUN_ID_PATTERN } from '../../shared/runIds';
import { perfettoBundleFileName } from '../service';

const USAGE = `kde-profiler export RUN --format trace|trace-json|json|md|csv [--out FILE [--force]] [--runs-dir DIR]
kde-profiler export RUN_A RUN_B … --format perfetto-bundle [--align start|wall-clock] [--out FILE.zip [--force]] [--runs-dir DIR]

--out FILE: a file that exists is not replaced unless --force; a link is never written through.`;
const OPTIONS = {
  format: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' }, 'runs-dir': { type: 'string' }, align: { type: 'string' }, help: { type: 'boolean', short: 'h' },
} as const;
const FORMATS = ['trace', 'trace-json', 'json', 'md', 'csv', 'perfetto-bundle'] as const;
/** runs one bundle may hold: each is a whole trace in memory */
const MAX_BUNDLE_RUNS = 64;

function runIdsOf(positionals: string[]): string[] {
  if (positionals.length === 0) throw new UsageError('export needs a run id (see kde-profiler list)');
  for (const id of positionals) {
    if (!RUN_ID_PATTERN.test(id)) throw new UsageError(`'${id}' is not a run id like 20250101-120000-a1b2c3 (see kde-profiler list)`);
  }
  const twice = positionals.find((id, i) => positionals.indexOf(id) !== i);
  if (twice) throw new UsageError(`run ${twice} is named twice`);
  return positionals;
}

function alignmentOf(text: string | undefined, format: string): BundleAlignment {
  if (text === undefined) return 'start';
  if (format !== 'perfetto-bundle') throw new UsageError('--align applies to --format perfetto-bundle');
  if (!(BUNDLE_ALIGNMENTS as readonly string[]).includes(text)) throw new UsageError(`--align: expected one of ${BUNDLE_ALIGNMENTS.join(', ')}, got '${text}'`);
  return text as BundleAlignment;
}

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, OPTIONS, MAX_BUNDLE_RUNS);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const format = stringFlag(flags, 'format') ?? 'trace';
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format: expected one of ${FORMATS.join(', ')}, got '${format}'`);
  const runIds = runIdsOf(flags.positionals);
  if (format !== 'perfetto-bundle' && runIds.length > 1) throw new UsageError(`unexpected argument '${runIds[1]}': only --format perfetto-bundle takes several runs`);
  const align = alignmentOf(stringFlag(flags, 'align'), format);
  const out = stringFlag(flags, 'out');
  const force = boolFlag(flags, 'force');
  if (format === 'perfetto-bundle') {
    const path = resolve(io.cwd, out ?? perfettoBundleFileName(runIds));
    await checkNewOutputFile(path, force, out === undefined ? '' : '--out');
    const bundle = await withService(io, stringFlag(flags, 'runs-dir'), (service) => service.exportPerfettoBundle(runIds, align));
    await writeOutputFile(path, bundle.bytes, force);
    io.stderr.write(`wrote ${path}: open it at ui.perfetto.dev (${runIds.length} run${runIds.length === 1 ? '' : 's'}, each a machine of its own)\n`);
    return EXIT.ok;
  }
  const oneFormat = format as Exclude<(typeof FORMATS)[number], 'perfetto-bundle'>;
  if (out !== undefined) await checkNewOutputFile(resolve(io.cwd, out), force);
  const result = await withService(io, stringFlag(flags, 'runs-dir'), (service) => service.exportRun(runIds[0]!, oneFormat));
  const bytes = Buffer.from(result.base64 ?? '', 'base64');
  const isText = format === 'json' || format === 'md' || format === 'csv';
  if (out === undefined && isText) {
    io.stdout.write(bytes.toString('utf8'));
    return EXIT.ok;
  }
  const path = resolve(io.cwd, out ?? result.fileName);
  if (out === undefined) await checkNewOutputFile(path, force, '');
  await writeOutputFile(path, bytes, force);
  io.stderr.write(`wrote ${path}\n`);
  return EXIT.ok;
}

export const exportCommand: CliCommand = { summary: "write a run's trace or report to a file, or several runs' traces as one Perfetto bundle", usage: USAGE, flags: OPTIONS, run: execute };
