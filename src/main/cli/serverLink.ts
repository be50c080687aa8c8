/**
 * Where a running `kde-profiler serve` can be reached, for the other commands on the same runs
 * folder. serve writes RUNS/.serve.json (its URL with the token, and its pid), readable by the
 * folder's owner only since the token is as good as a password, and removes it when it stops;
 * `run` and `decode` read it to print the web link to the run they made. A file whose process is
 * gone (a serve that was killed) or that another user wrote is ignored.
 */
import { chmod, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readUntrustedText } from '../data';
import { processAlive } from '../service';
import type { CliIo } from './cliTypes';

export const SERVE_INFO_FILE = '.serve.json';

export interface ServeInfo {
  /** the page's URL with its token, as serve prints it */
  url: string;
  pid: number;
}

/** the views a link to a run opens: its results, or its timeline and progress */
export type RunLinkView = 'results' | 'live';

/** `<url with token>#/results?run=<id>`: the app opens that view on that run */
export function runLink(url: string, runId: string, view: RunLinkView = 'results'): string {
  const base = url.split('#')[0]!;
  return `${base}#/${view}?run=${encodeURIComponent(runId)}`;
}

function isServeInfo(v: unknown): v is ServeInfo {
  const r = v as Partial<ServeInfo> | null;
  return typeof r === 'object' && r !== null && typeof r.url === 'string' && /^https?:\/\//.test(r.url) && Number.isSafeInteger(r.pid) && r.pid! > 0;
}

/** a serve's record is a URL and a pid */
const MAX_INFO_BYTES = 64 * 1024;

async function readInfoFile(file: string): Promise<ServeInfo | null> {
  try {
    // a pipe, a device or a link here is no serve's: refused without waiting on it
    const [text, st] = await Promise.all([readUntrustedText(file, { maxBytes: MAX_INFO_BYTES }), stat(file)]);
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return null;
    const parsed: unknown = JSON.parse(text);
    return isServeInfo(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Records this serve in the runs folder (mode 0600, written whole or not at all); returns the file. */
export async function writeServeInfo(runsDir: string, info: ServeInfo): Promise<string> {
  const file = join(runsDir, SERVE_INFO_FILE);
  const tmp = `${file}.${info.pid}.tmp`;
  // a leftover of a killed serve may have wider permissions: start from no file
  await rm(tmp, { force: true });
  await writeFile(tmp, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  // the mode above is only for a new file, and the umask may narrow but never widen it
  await chmod(tmp, 0o600);
  await rename(tmp, file);
  return file;
}

/** Removes the record of the serve with this pid; another serve's record (a later one on the same folder) stays. */
export async function removeServeInfo(runsDir: string, pid: number): Promise<void> {
  const file = join(runsDir, SERVE_INFO_FILE);
  const info = await readInfoFile(file);
  if (info?.pid === pid) await rm(file, { force: true });
}

/** The serve running on this runs folder, or null (none, gone, or a file not ours). */
export async function runningServer(runsDir: string): Promise<ServeInfo | null> {
  const info = await readInfoFile(join(runsDir, SERVE_INFO_FILE));
  return info !== null && processAlive(info.pid) ? info : null;
}

/** After a run: one line with its web link when a serve is running on its runs folder; never fails the command. */
export async function printRunLink(io: CliIo, runsDir: string, runId: string, view: RunLinkView): Promise<void> {
  const server = await runningServer(runsDir);
  if (server !== null) io.stderr.write(`run ${runId} in the browser: ${runLink(server.url, runId, view)}\n`);
}
