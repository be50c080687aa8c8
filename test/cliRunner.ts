/**
 * The command line as a person runs it, for the tests: `bin/kde-profiler.mjs` in a process of its
 * own in `cwd`, and what it said and how it ended. One place, so every CLI test runs it the same way.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_BIN = fileURLToPath(new URL('../bin/kde-profiler.mjs', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args` (and `env` added to this process's environment); a killed or failed start reads as code 1. */
export function runCli(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI_BIN, ...args], { cwd, timeout: 120_000, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}
