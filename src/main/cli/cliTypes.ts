/**
 * What every command gets and returns: its arguments, the streams to write to (injectable for
 * tests), and an exit code. Exit codes: 0 success, 1 internal error, 2 bad input or arguments,
 * 3 regression found by `compare`, 130 interrupted.
 */

import type { ParseArgsConfig } from 'node:util';

export const EXIT = { ok: 0, internal: 1, usage: 2, regression: 3, inconclusive: 4, interrupted: 130 } as const;

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  cwd: string;
}

export interface CliCommand {
  /** one line for the help text */
  summary: string;
  /** the synopsis shown by --help and on a usage error */
  usage: string;
  /**
   * the parseArgs options table the command parses its arguments with: kept here, beside `usage`,
   * so a test can check that --help (and the README) name exactly the flags that are parsed
   */
  flags: NonNullable<ParseArgsConfig['options']>;
  run(args: string[], io: CliIo): Promise<number>;
}

/** A mistake in the command line: exit 2 with one line on stderr. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
