/**
 * The command table: `kde-profiler <name>` dispatches here. A new command (e.g. `serve`) is one
 * more entry pointing at its own module.
 */
import type { CliCommand } from './cliTypes';
import { compareCommand } from './compareCommand';
import { decodeCommand } from './decodeCommand';
import { exportCommand } from './exportCommand';
import { infoCommand } from './infoCommand';
import { listCommand } from './listCommand';
import { mergeCommand } from './mergeCommand';
import { runCommand } from './runCommand';
import { scanCommand } from './scanCommand';
import { serveCommand } from './serve';
import { slurmCommand } from './slurmCommand';
import { sweepCommand } from './sweepCommand';
import { validateCommand } from './validateCommand';

export const COMMANDS: Record<string, CliCommand> = {
  run: runCommand,
  decode: decodeCommand,
  scan: scanCommand,
  validate: validateCommand,
  info: infoCommand,
  list: listCommand,
  export: exportCommand,
  compare: compareCommand,
  merge: mergeCommand,
  sweep: sweepCommand,
  serve: serveCommand,
  slurm: slurmCommand,
};
