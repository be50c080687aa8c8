/**
 * What one store knows index.json holds: how far along each run is there. A refresh writes the
 * index only when the store knows more (a run the index lacks or has not moved on, a folder gone),
 * so listing a runs folder whose index is up to date writes nothing and does not even re-read it;
 * and a store meeting many run folders at once (its first look at a large runs folder) takes their
 * finished runs from the index instead of reading a status file per run.
 *
 * Unfinished runs and damaged ones are always read from their folders: whether a run still runs
 * depends on its owner process, which only status.json names, and a damaged status may have been
 * repaired since.
 */
import type { RunIndexEntry } from '../../../shared/api';
import { progressOf, readIndex } from './runIndex';
import { isDamagedEntry } from './statusCheck';

/** new run folders past which reading the whole index costs less than reading their status files */
const NEW_FOLDERS_WORTH_THE_INDEX = 256;

export class IndexedRuns {
  private readonly progress = new Map<string, number>();
  private read = false;
  /** whether this store has read the index or written it yet: until then an empty runs folder still gets one */
  checked = false;

  constructor(private readonly runsDir: string) {}

  /**
   * The finished runs among `unknown` (run folders the store has no entry for) as the index lists
   * them; the index is read on the store's first look and when many folders are new to it,
   * otherwise their status files are the cheaper read. `folders`: how many run folders there are,
   * which bounds the index's size.
   */
  async finishedAmong(unknown: readonly string[], folders: number): Promise<RunIndexEntry[]> {
    if (unknown.length === 0 || (this.read && unknown.length < NEW_FOLDERS_WORTH_THE_INDEX)) return [];
    this.read = true;
    this.checked = true;
    const listed = await readIndex(this.runsDir, folders);
    for (const [id, entry] of listed) this.progress.set(id, progressOf(entry));
    const found: RunIndexEntry[] = [];
    for (const id of unknown) {
      const entry = listed.get(id);
      if (entry && progressOf(entry) === 2 && !isDamagedEntry(entry)) found.push(entry);
    }
    return found;
  }

  /** whether the index, as far as this store knows, has not got `entry` as far as it is */
  lags(entry: RunIndexEntry): boolean {
    return (this.progress.get(entry.id) ?? -1) < progressOf(entry);
  }

  /** Forgets the runs whose folders are gone; true when there were any (the index still lists them). */
  prune(present: ReadonlySet<string>): boolean {
    let pruned = false;
    for (const id of [...this.progress.keys()]) {
      if (present.has(id)) continue;
      this.progress.delete(id);
      pruned = true;
    }
    return pruned;
  }

  /** `entries` reached the index (or it could not take them: a read-only folder is not retried at every refresh) */
  note(entries: readonly RunIndexEntry[]): void {
    this.checked = true;
    for (const e of entries) this.progress.set(e.id, Math.max(progressOf(e), this.progress.get(e.id) ?? -1));
  }

  forget(id: string): void {
    this.progress.delete(id);
  }
}
