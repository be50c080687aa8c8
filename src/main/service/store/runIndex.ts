/**
 * runs/index.json: the list of runs for whoever reads the runs folder without the app. It is
 * derived from the run folders' status files (the store lists runs from those, never from here),
 * and several processes write it: each update re-reads the file under index.json.lock, applies its
 * own change and writes it back by rename, so no writer drops another writer's run.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunIndexEntry } from '../../../shared/api';
import { parseBoundedJson } from '../../../shared/boundedJson';
import { isRunId } from '../../../shared/runIds';
import { readUntrustedText } from '../../data';
import { withFileLock } from './indexLock';
import { writeTextAtomic } from './jsonFiles';
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

/** newest first; ties by id, newest first too */
export function compareEntries(a: RunIndexEntry, b: RunIndexEntry): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return b.id.localeCompare(a.id);
}

/** how far a run has got: a status read earlier cannot undo a later one */
function progressOf(entry: RunIndexEntry): number {
  if (entry.status === 'queued') return 0;
  if (entry.status === 'running') return 1;
  return 2;
}

function serializeIndex(entries: Iterable<RunIndexEntry>): string {
  return JSON.stringify({ runs: [...entries].sort(compareEntries) }, null, 2) + '\n';
}

/** The entries of an index file; an unreadable or malformed file counts as empty (it is rebuilt). */
function parseIndex(text: string | undefined): Map<string, RunIndexEntry> {
  const entries = new Map<string, RunIndexEntry>();
  if (text === undefined) return entries;
  try {
    const runs = (parseBoundedJson(text, INDEX_FILE) as { runs?: unknown } | null)?.runs;
    if (!Array.isArray(runs)) return entries;
    for (const r of runs as unknown[]) {
      const id = (r as { id?: unknown } | null)?.id;
      if (isRunId(id)) entries.set(id, r as RunIndexEntry);
    }
  } catch {
    // rebuilt from the change and the next full refresh
  }
  return entries;
}

/** the most index.json may hold: a generous entry for each of a hundred thousand runs */
const MAX_INDEX_BYTES = 64 * 2 ** 20;

/** The index's text; undefined when it is missing, a link, not a regular file or too large (it is rebuilt). */
async function readText(path: string): Promise<string | undefined> {
  try {
    return await readUntrustedText(path, { maxBytes: MAX_INDEX_BYTES });
  } catch {
    return undefined;
  }
}

async function runFolders(runsDir: string): Promise<Set<string>> {
  try {
    return new Set((await readdir(runsDir)).filter(isRunId));
  } catch {
    return new Set();
  }
}

async function folderExists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function applyChange(runsDir: string, current: Map<string, RunIndexEntry>, change: IndexChange): Promise<Map<string, RunIndexEntry>> {
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
  if (change.prune) {
    const present = await runFolders(runsDir);
    for (const id of [...next.keys()]) if (!present.has(id)) next.delete(id);
  }
  return next;
}

/** The index as it would read after `change`; undefined when it already reads so. */
async function changedIndex(runsDir: string, change: IndexChange): Promise<string | undefined> {
  const text = await readText(join(runsDir, INDEX_FILE));
  const next = serializeIndex((await applyChange(runsDir, parseIndex(text), change)).values());
  return next === text ? undefined : next;
}

/**
 * Applies `change` to index.json. Nothing is written (and no lock taken) when the file already
 * says so, which keeps listing a read-only runs folder free of writes. A write that fails is
 * reported about the runs folder (storeErrors).
 */
export async function updateIndex(runsDir: string, change: IndexChange): Promise<void> {
  if ((await changedIndex(runsDir, change)) === undefined) return;
  await storeWrite(runsDir, () =>
    withFileLock(join(runsDir, INDEX_LOCK_FILE), async () => {
      const next = await changedIndex(runsDir, change);
      if (next !== undefined) await writeTextAtomic(join(runsDir, INDEX_FILE), next, runsDir);
    }),
  );
}
