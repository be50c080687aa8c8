/** For the CLI's tests: streams that collect what a command writes, and a command run through them. */
import { PassThrough } from 'node:stream';
import type { CliIo } from './cliTypes';
import { runCli } from './main';

export function capturedIo(cwd: string): { io: CliIo; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += String(c)));
  stderr.on('data', (c) => (err += String(c)));
  return { io: { stdout, stderr, cwd }, out: () => out, err: () => err };
}

/** Runs `kde-profiler ARGS…` in-process from `cwd`: its exit code and everything it wrote. */
export async function runCliCaptured(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { io, out, err } = capturedIo(cwd);
  const code = await runCli(args, io);
  return { code, stdout: out(), stderr: err() };
}
