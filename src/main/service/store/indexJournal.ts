/**
 * index.journal.ndjson: the changes to index.json since it was last written whole, one a line, in
 * the order they were made. A status write appends its run's entry here instead of rewriting an
 * index of every run (a second at 100 000 runs), so it costs the same whatever the runs folder
 * holds; the index reads as index.json with these lines applied in turn, and is written whole
 * again (compacted) once the journal has grown past a share of it, which keeps that cost spread
 * thin over the writes that made it.
 *
 * Appends are made under index.json.lock, like every write of the index. A writer killed
 * mid-append leaves a last line without its newline: readers skip it, and the next append starts
 * on a line of its own. A compaction writes index.json first and removes the journal after it, so
 * a kill between the two leaves lines the index already holds; applying a line again gives what
 * applying it once gave (each puts or removes one run outright), so they do no harm.
 */
import { constants } from 'node:fs';
import { lstat, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunIndexEntry } from '../../../shared/api';
import { parseBoundedJson } from '../../../shared/boundedJson';
import { isRunId } from '../../../shared/runIds';
import { readUntrustedText } from '../../data';
import { statusProblem } from './statusCheck';

export const INDEX_JOURNAL_FILE = 'index.journal.ndjson';

/** One change: a run's entry as its owner last wrote it, or the run gone from the index. */
export type JournalChange = { put: RunIndexEntry } | { remove: string };

/**
 * The journal is compacted past this, or past a quarter of index.json, whichever is more: small
 * runs folders are compacted now and then, large ones once per so many writes that each write's
 * share of the rewrite stays the same.
 */
const JOURNAL_COMPACT_MIN_BYTES = 64 * 1024;
const JOURNAL_COMPACT_SHARE = 4;

export function journalNeedsCompacting(journalBytes: number, indexBytes: number): boolean {
  return journalBytes > Math.max(JOURNAL_COMPACT_MIN_BYTES, indexBytes / JOURNAL_COMPACT_SHARE);
}

/** a change's line; a put's entry must already be cut to the listing's fields (runIndex.ts writes those itself) */
export function journalLine(change: JournalChange): string {
  return JSON.stringify(change);
}

/** A line's change; undefined for a torn, malformed or ill-shaped line (its run is read from its folder). */
function parseLine(line: string): JournalChange | undefined {
  let value: unknown;
  try {
    value = parseBoundedJson(line, INDEX_JOURNAL_FILE, { maxChars: line.length, maxDepth: 16 });
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { put, remove } = value as { put?: unknown; remove?: unknown };
  if (isRunId(remove)) return { remove };
  const id = (put as { id?: unknown } | null | undefined)?.id;
  return isRunId(id) && statusProblem(put, id) === undefined ? { put: put as RunIndexEntry } : undefined;
}

/**
 * The journal's changes in order; none when it is missing, a link, not a regular file or past
 * `maxBytes`. Only lines ended by a newline count: a last line without one is an append cut short.
 */
export async function readJournal(runsDir: string, maxBytes: number): Promise<JournalChange[]> {
  let text: string;
  try {
    text = await readUntrustedText(join(runsDir, INDEX_JOURNAL_FILE), { maxBytes });
  } catch {
    return [];
  }
  const lines = text.split('\n');
  lines.pop();
  return lines.flatMap((line) => parseLine(line) ?? []);
}

/** Applies the journal's changes to the entries index.json holds, in place. */
export function applyJournal(entries: Map<string, RunIndexEntry>, changes: readonly JournalChange[]): Map<string, RunIndexEntry> {
  for (const c of changes) {
    if ('put' in c) entries.set(c.put.id, c.put);
    else entries.delete(c.remove);
  }
  return entries;
}

// read and write: the last byte says whether an append was cut short
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The journal, opened for appending; a link, a pipe or a folder in its place is nobody's journal and is removed first. */
async function openForAppend(path: string) {
  const found = await lstat(path).catch(() => undefined);
  if (found && !found.isFile()) await rm(path, { recursive: true, force: true });
  return open(path, APPEND_FLAGS, 0o644);
}

/**
 * Appends `lines` to the journal in one write, on a line of their own; the journal's size after
 * it. Call under index.json.lock: nothing else may append meanwhile.
 */
export async function appendJournal(runsDir: string, lines: readonly string[]): Promise<number> {
  const handle = await openForAppend(join(runsDir, INDEX_JOURNAL_FILE));
  try {
    const { size } = await handle.stat();
    let torn = false;
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      torn = last[0] !== 0x0a;
    }
    const text = `${torn ? '\n' : ''}${lines.join('\n')}\n`;
    await handle.write(text);
    return size + Buffer.byteLength(text);
  } finally {
    await handle.close();
  }
}

/** Removes the journal once index.json holds all it says. */
export async function removeJournal(runsDir: string): Promise<void> {
  await rm(join(runsDir, INDEX_JOURNAL_FILE), { force: true });
}
