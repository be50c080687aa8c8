/**
 * runs/index.json: the list of runs for whoever reads the runs folder without the app, and the
 * store's own quick read of a large runs folder (a finished run's entry there is what its status
 * file says: only the store writes either, status first). Several processes write it: each update
 * re-reads the file under index.json.lock, applies its own change and writes it back by rename, so
 * no writer drops another writer's run.
 *
 * One compact entry a line, in a fixed key order, so that the same runs always give the same bytes
 * and a reader that already agrees writes nothing. The file may hold at most a fixed slack plus a
 * bounded entry per run folder: an entry longer than that bound is left out (its run is listed from
 * its status file), so the index can never pass its own read cap however many runs there are.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compareEntries, type RunIndexEntry } from '../../../shared/api';
import { parseBoundedJson } from '../../../shared/boundedJson';
import { isRunId } from '../../../shared/runIds';
import { readUntrustedText } from '../../data';
import { withFileLock } from './indexLock';
import { writeTextAtomic } from './jsonFiles';
import { statusProblem } from './statusCheck';
import { storeWrite } from './storeErrors';

export const INDEX_FILE = 'index.json';
export const INDEX_LOCK_FILE = `${INDEX_FILE}.lock`;

export interface IndexChange {
  /** entries from the run's owner, who knows best: they replace what the index says */
  put?: RunIndexEntry[];
  /**
   * entries read from the status files, perhaps just before their owner moved the run on: they
   * add runs the index lacks and move runs on, never back (running over completed, say); an entry
   * as far along as the index's leaves it be, so two readers never rewrite the file in turn
   */
  seen?: RunIndexEntry[];
  remove?: string[];
  /** drop the entries of runs whose folders are gone */
  prune?: boolean;
}

/** the longest entry the index keeps (a label, a headline per strategy, a reason fit easily) */
export const MAX_INDEX_ENTRY_BYTES = 4096;
/** room beyond the entries: the brackets, and runs whose folders appear while the file is read */
const INDEX_SLACK_BYTES = 2 ** 20;

/** the most index.json may hold for a runs folder of `folders` run folders */
export function indexCapBytes(folders: number): number {
  return INDEX_SLACK_BYTES + folders * (MAX_INDEX_ENTRY_BYTES + 2);
}

/** how far a run has got: a status read earlier cannot undo a later one */
export function progressOf(entry: RunIndexEntry): number {
  if (entry.status === 'queued') return 0;
  if (entry.status === 'running') return 1;
  return 2;
}

/** An entry's line: the listing's fields only, always in this order (owner pids and the like stay in status.json). */
function entryLine(e: RunIndexEntry): string {
  const { id, status, createdAt, finishedAt, label, dataset, backend, strategies, headline, error } = e;
  return JSON.stringify({ id, status, createdAt, finishedAt, label, dataset, backend, strategies, headline, error });
}

function serializeIndex(entries: Iterable<RunIndexEntry>): string {
  const lines = [...entries].sort(compareEntries).map(entryLine).filter((line) => line.length <= MAX_INDEX_ENTRY_BYTES);
  return lines.length === 0 ? '{"runs":[]}\n' : `{"runs":[\n${lines.join(',\n')}\n]}\n`;
}

/**
 * The entries of an index file that have the shape a status has; an unreadable or malformed file
 * counts as empty and an ill-shaped entry as missing (both are rebuilt from the status files).
 */
function parseIndex(text: string | undefined): Map<string, RunIndexEntry> {
  const entries = new Map<string, RunIndexEntry>();
  if (text === undefined) return entries;
  try {
    const runs = (parseBoundedJson(text, INDEX_FILE, { maxChars: text.length, maxDepth: 16 }) as { runs?: unknown } | null)?.runs;
    if (!Array.isArray(runs)) return entries;
    for (const r of runs as unknown[]) {
      const id = (r as { id?: unknown } | null)?.id;
      if (isRunId(id) && statusProblem(r, id) === undefined) entries.set(id, r as RunIndexEntry);
    }
  } catch {
    // rebuilt from the change and the next full refresh
  }
  return entries;
}

/** The index's text; undefined when it is missing, a link, not a regular file or past its cap (it is rebuilt). */
async function readText(runsDir: string, folders: number): Promise<string | undefined> {
  try {
    return await readUntrustedText(join(runsDir, INDEX_FILE), { maxBytes: indexCapBytes(folders) });
  } catch {
    return undefined;
  }
}

/** the run folders in the runs folder (their names) */
export async function runFolders(runsDir: string): Promise<Set<string>> {
  try {
    return new Set((await readdir(runsDir)).filter(isRunId));
  } catch {
    return new Set();
  }
}

/** What index.json lists, for a runs folder of `folders` run folders; empty when it is missing or damaged. */
export async function readIndex(runsDir: string, folders: number): Promise<Map<string, RunIndexEntry>> {
  return parseIndex(await readText(runsDir, folders));
}

async function folderExists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function applyChange(runsDir: string, current: Map<string, RunIndexEntry>, change: IndexChange, present: Set<string>): Promise<Map<string, RunIndexEntry>> {
  const next = new Map(current);
  for (const entry of change.seen ?? []) {
    const known = next.get(entry.id);
    if (!known || progressOf(entry) > progressOf(known)) next.set(entry.id, entry);
  }
  for (const entry of change.put ?? []) {
    // a run deleted while its owner's update was on its way must not come back
    if (await folderExists(join(runsDir, entry.id))) next.set(entry.id, entry);
    else next.delete(entry.id);
  }
  for (const id of change.remove ?? []) next.delete(id);
  if (change.prune) for (const id of [...next.keys()]) if (!present.has(id)) next.delete(id);
  return next;
}

/** The index as it would read after `change`; undefined when it already reads so. */
async function changedIndex(runsDir: string, change: IndexChange): Promise<string | undefined> {
  const present = await runFolders(runsDir);
  const text = await readText(runsDir, present.size);
  const next = serializeIndex((await applyChange(runsDir, parseIndex(text), change, present)).values());
  return next === text ? undefined : next;
}

/**
 * Applies `change` to index.json. A change that only tidies (seen, prune) writes nothing, and
 * takes no lock, when the file already says so, which keeps listing a read-only runs folder free
 * of writes; an owner's change (put, remove) comes right after its own write to the folder, so it
 * reads the index once, under the lock (a large index costs one read per update, not two). A
 * write that fails is reported about the runs folder (storeErrors).
 */
export async function updateIndex(runsDir: string, change: IndexChange): Promise<void> {
  const owners = (change.put?.length ?? 0) + (change.remove?.length ?? 0) > 0;
  if (!owners && (await changedIndex(runsDir, change)) === undefined) return;
  await storeWrite(runsDir, () =>
    withFileLock(join(runsDir, INDEX_LOCK_FILE), async () => {
      const next = await changedIndex(runsDir, change);
      if (next !== undefined) await writeTextAtomic(join(runsDir, INDEX_FILE), next, runsDir);
    }),
  );
}
