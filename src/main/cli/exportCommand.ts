/** `kde-profiler export RUN --format trace|trace-json|json|md|csv [--out FILE]`. */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { boolFlag, parseFlags, stringFlag } from './args';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { defaultRunsDir } from './runCommand';
import { RUN_ID_PATTERN } from '../../shared/runIds';
import { createProfilerService } from '../service';

const USAGE = 'kde-profiler export RUN --format trace|trace-json|json|md|csv [--out FILE] [--runs-dir DIR]';
const FORMATS = ['trace', 'trace-json', 'json', 'md', 'csv'] as const;

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, {
    format: { type: 'string' }, out: { type: 'string' }, 'runs-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' },
  }, 1);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const runId = flags.positionals[0];
  if (runId === undefined) throw new UsageError('export needs a run id (see kde-profiler list)');
  if (!RUN_ID_PATTERN.test(runId)) throw new UsageError(`'${runId}' is not a run id like 20250101-120000-a1b2c3 (see kde-profiler list)`);
  const format = stringFlag(flags, 'format') ?? 'trace';
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format: expected one of ${FORMATS.join(', ')}, got '${format}'`);
  const service = createProfilerService({ runsDir: defaultRunsDir(io, stringFlag(flags, 'runs-dir')) });
  const result = await service.exportRun(runId, format as (typeof FORMATS)[number]);
  const bytes = Buffer.from(result.base64 ?? '', 'base64');
  const out = stringFlag(flags, 'out');
  const isText = format === 'json' || format === 'md' || format === 'csv';
  if (out === undefined && isText) {
    io.stdout.write(bytes.toString('utf8'));
    return EXIT.ok;
  }
  const path = resolve(io.cwd, out ?? result.fileName);
  await writeFile(path, bytes);
  io.stderr.write(`wrote ${path}\n`);
  return EXIT.ok;
}

export const exportCommand: CliCommand = { summary: "write a run's trace or report to a file", usage: USAGE, run: execute };
