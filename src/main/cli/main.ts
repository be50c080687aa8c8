/**
 * `kde-profiler`: dispatches to a command of the table, and turns whatever a command throws into
 * one line on stderr and an exit code (2 for the user's input, 1 for anything internal). The CLI's
 * entry (bin/kde-profiler.mjs calls runCli); nothing imports the folder, so it has no index.ts.
 * It must not import electron, nor the engine statically: commands go through the service, which
 * runs the engine in its own process.
 */
import { deserializeError, exitCodeFor, isAppError, serializeError } from '../../shared/errors';
import { terminalSafe } from './terminalStream';
import { EXIT, UsageError, type CliIo } from './cliTypes';
import { COMMANDS } from './commands';
import { didYouMean } from '../../shared/suggest';

function help(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length));
  return [
    'usage: kde-profiler <command> [options]   (kde-profiler <command> --help for its options)',
    '',
    ...names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n]!.summary}`),
    '',
  ].join('\n');
}

export async function runCli(argv: string[], rawIo: CliIo = { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() }): Promise<number> {
  const io = terminalSafe(rawIo);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(help());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    const { toolVersion } = await import('../service');
    io.stdout.write(`${toolVersion()}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(`kde-profiler: unknown command '${name}'${didYouMean(name, Object.keys(COMMANDS))} (commands: ${Object.keys(COMMANDS).join(', ')})\n`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`kde-profiler ${name}: ${e.message}\n`);
      return EXIT.usage;
    }
    const err = isAppError(e) ? e : deserializeError(serializeError(e));
    io.stderr.write(`kde-profiler ${name}: ${err.message}\n`);
    if (err.code === 'INTERNAL' && e instanceof Error && process.env.KDE_PROFILER_DEBUG) io.stderr.write(`${e.stack}\n`);
    return exitCodeFor(err);
  }
}
