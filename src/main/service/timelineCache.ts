/**
 * Timeline indexes of recently viewed runs, built once from events.ndjson. A run still recording
 * is re-indexed when new records arrived, at most every REFRESH_MS, so a live view keeps up
 * without re-reading the file on every scroll; its index also draws the spans the run has open
 * (from the host), which the file cannot hold yet.
 */
import { readNdjsonRecords } from '../export';
import type { OpenSpan } from '../engineProtocol';
import { buildTimelineIndex, type TimelineIndex } from './timelineIndex';

const MAX_CACHED_RUNS = 4;
const REFRESH_MS = 1000;

interface Entry {
  index: TimelineIndex;
  recordCount: number | undefined;
  builtAtMs: number;
}

export class TimelineCache {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<Entry>>();

  /** `openSpans` answers what a live run has open now */
  constructor(private readonly openSpans: (runId: string) => readonly OpenSpan[]) {}

  /** `liveCount` is the record count of a run still recording, undefined for a finished one. */
  async get(runId: string, eventsPath: string, liveCount: number | undefined): Promise<TimelineIndex> {
    const hit = this.entries.get(runId);
    const fresh =
      hit && (liveCount === undefined ? hit.recordCount === undefined : hit.recordCount === liveCount || performance.now() - hit.builtAtMs < REFRESH_MS);
    if (hit && fresh) {
      this.entries.delete(runId);
      this.entries.set(runId, hit);
      return hit.index;
    }
    let pending = this.building.get(runId);
    if (!pending) {
      pending = (async () => {
        const { records } = await readNdjsonRecords(eventsPath);
        // asked after the file was read: a span it holds complete is then no longer listed open
        const open = liveCount === undefined ? [] : this.openSpans(runId);
        return { index: buildTimelineIndex(records, { open }), recordCount: liveCount, builtAtMs: performance.now() };
      })();
      this.building.set(runId, pending);
    }
    try {
      const entry = await pending;
      this.entries.delete(runId);
      this.entries.set(runId, entry);
      while (this.entries.size > MAX_CACHED_RUNS) this.entries.delete(this.entries.keys().next().value!);
      return entry.index;
    } finally {
      this.building.delete(runId);
    }
  }

  forget(runId: string): void {
    this.entries.delete(runId);
  }
}
