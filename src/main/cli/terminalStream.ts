/**
 * The CLI's output streams, through which every line it prints passes: text from a data file
 * (a dataset's or an electrode's name, a run's label) cannot move the cursor, clear the screen,
 * retitle the terminal or reorder what follows (bidi overrides), because every acting character
 * shows as its escape (\u001b, \u202e, as git's core.quotePath shows such names). The one sequence
 * the CLI writes itself, the progress line's return and erase, passes through whole. Bytes
 * (Buffers) pass untouched: they are a file's content, not text for a screen.
 */
import { terminalText } from '../../shared/untrustedText';
import type { CliIo } from './cliTypes';

/** the progress line's own return-and-erase (progressLine.ts) */
export const ERASE_LINE = '\r\x1b[K';

type Out = CliIo['stdout'] | CliIo['stderr'];

function safe<S extends Out>(stream: S): S {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  return new Proxy(stream, {
    get(target, key, receiver) {
      if (key === 'write') return (chunk: unknown, ...rest: unknown[]) => write(typeof chunk === 'string' ? terminalText(chunk, [ERASE_LINE]) : chunk, ...rest);
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The same io with its two streams showing acting characters as escapes. */
export function terminalSafe(io: CliIo): CliIo {
  return { ...io, stdout: safe(io.stdout), stderr: safe(io.stderr) };
}
