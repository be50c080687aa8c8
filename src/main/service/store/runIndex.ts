/**
 * runs/index.json: the list of runs for whoever reads the runs folder without the app, and the
 * store's own quick read of a large runs folder (a finished run's entry there is what its status
 * file says: only the store writes either, status first). Several processes write it, each under
 * index.json.lock, so no writer drops another writer's run.
 *
 * A run's owner, writing its status, appends the run's entry to index.journal.ndjson
 * (indexJournal.ts) instead of rewriting the whole index: what the index says is index.json with
 * the journal's lines applied in turn, and index.json is written whole again (the journal folded
 * in and removed) when the journal has grown past a share of it, or when a reader's refresh finds
 * the index behind the run folders. A reader outside the app reads both the same way.
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
import { applyJournal, appendJournal, journalLine, journalNeedsCompacting, readJournal, removeJournal } from './indexJournal';
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

/** A journal line putting an entry, with the listing's fields only; undefined when the entry is longer than the index keeps. */
function putLine(e: RunIndexEntry): string | undefined {
  const line = entryLine(e);
  return line.length <= MAX_INDEX_ENTRY_BYTES ? `{"put":${line}}` : undefined;
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

interface IndexNow {
  /** index.json's text, when it could be read */
  text: string | undefined;
  /** what the index says: index.json with the journal applied */
  entries: Map<string, RunIndexEntry>;
  /** whether the journal holds changes index.json lacks */
  journaled: boolean;
}

async function readNow(runsDir: string, folders: number): Promise<IndexNow> {
  const text = await readText(runsDir, folders);
  // the journal is bounded like the index: it is compacted long before it could hold more
  const changes = await readJournal(runsDir, indexCapBytes(folders));
  return { text, entries: applyJournal(parseIndex(text), changes), journaled: changes.length > 0 };
}

/** What the index lists (index.json and its journal), for a runs folder of `folders` run folders; empty when missing or damaged. */
export async function readIndex(runsDir: string, folders: number): Promise<Map<string, RunIndexEntry>> {
  return (await readNow(runsDir, folders)).entries;
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

/** index.json as it would read after `change`, the journal folded in; undefined when the index already reads so. */
async function changedIndex(runsDir: string, change: IndexChange): Promise<string | undefined> {
  const present = await runFolders(runsDir);
  const now = await readNow(runsDir, present.size);
  const before = now.journaled ? serializeIndex(now.entries.values()) : now.text;
  const next = serializeIndex((await applyChange(runsDir, now.entries, change, present)).values());
  return next === before ? undefined : next;
}

/** Writes index.json whole, then drops the journal it now holds (a kill between leaves lines that change nothing). */
async function writeWhole(runsDir: string, text: string): Promise<void> {
  await writeTextAtomic(join(runsDir, INDEX_FILE), text, runsDir);
  await removeJournal(runsDir);
}

async function fileBytes(path: string): Promise<number> {
  return stat(path).then((s) => s.size, () => 0);
}

/**
 * An owner's change as lines of the journal, under the lock: one stat per run, whatever the runs
 * folder holds; the whole index is written again only when the journal has outgrown its share.
 */
async function journalChange(runsDir: string, change: IndexChange): Promise<void> {
  const lines: string[] = [];
  for (const entry of change.put ?? []) {
    // a run deleted while its owner's update was on its way must not come back; an entry too long to keep is listed from its status file
    const line = (await folderExists(join(runsDir, entry.id))) ? putLine(entry) : undefined;
    lines.push(line ?? journalLine({ remove: entry.id }));
  }
  for (const id of change.remove ?? []) lines.push(journalLine({ remove: id }));
  const journalBytes = await appendJournal(runsDir, lines);
  if (journalNeedsCompacting(journalBytes, await fileBytes(join(runsDir, INDEX_FILE)))) await compact(runsDir);
}

/** Folds the journal into index.json (pruning runs whose folders are gone) and drops it. */
async function compact(runsDir: string): Promise<void> {
  const present = await runFolders(runsDir);
  const now = await readNow(runsDir, present.size);
  const next = serializeIndex((await applyChange(runsDir, now.entries, { prune: true }, present)).values());
  if (next !== now.text) await writeTextAtomic(join(runsDir, INDEX_FILE), next, runsDir);
  await removeJournal(runsDir);
}

/**
 * Applies `change` to the index. An owner's change alone (put, remove) comes right after its own
 * write to the folder: it is appended to the journal under the lock, reading nothing of the index.
 * A change that tidies (seen, prune) reads the whole index, and writes nothing, taking no lock,
 * when it already says so, which keeps listing a read-only runs folder free of writes; otherwise it
 * writes index.json whole, the journal folded in. A write that fails is reported about the runs
 * folder (storeErrors).
 */
export async function updateIndex(runsDir: string, change: IndexChange): Promise<void> {
  const owners = (change.put?.length ?? 0) + (change.remove?.length ?? 0) > 0;
  const tidies = change.seen !== undefined || change.prune === true;
  const lock = join(runsDir, INDEX_LOCK_FILE);
  if (!tidies) {
    if (owners) await storeWrite(runsDir, () => withFileLock(lock, () => journalChange(runsDir, change)));
    return;
  }
  if (!owners && (await changedIndex(runsDir, change)) === undefined) return;
  await storeWrite(runsDir, () =>
    withFileLock(lock, async () => {
      const next = await changedIndex(runsDir, change);
      if (next !== undefined) await writeWhole(runsDir, next);
    }),
  );
}
