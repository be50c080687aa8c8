// The newest modification time of the files under a folder: what the command line's launcher
// (bin/kde-profiler.mjs), `npm start` (scripts/start.mjs), the build's test and the browser tests'
// harness compare with a build's time to tell whether a source changed after it. Plain Node, no
// dependencies: the launcher runs it before anything else is loaded, from an installed package too.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The newest mtime (ms since the epoch) of `path`, a file, or of the files anywhere under it, a
 * folder; 0 when it does not exist. The walk stops at the first time past `stopAbove` and answers
 * that one: asking only whether anything is newer than a build needs no more.
 */
export function newestMtimeMs(path, stopAbove = Infinity) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) {
    newest = Math.max(newest, newestMtimeMs(join(path, name), stopAbove));
    if (newest > stopAbove) break;
  }
  return newest;
}
