/**
 * Timeline indexes and counter series of recently viewed finished runs, both built from one read
 * of events.ndjson and kept, so scrolling and zooming never read the file again. A run still
 * recording is answered from memory by its LiveTimeline instead.
 */
import type { CounterSeries } from '../../../shared/api';
import { CounterSeriesBuilder } from '../../../shared/counterSeries';
import { readNdjsonRecords } from '../../export';
import { TimelineIndexBuilder, type TimelineIndex } from './timelineIndex';

const MAX_CACHED_RUNS = 4;

interface Entry {
  index: TimelineIndex;
  counters: CounterSeries[];
}

export class TimelineCache {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<Entry>>();

  async get(runId: string, eventsPath: string): Promise<TimelineIndex> {
    return (await this.entry(runId, eventsPath)).index;
  }

  async counters(runId: string, eventsPath: string): Promise<CounterSeries[]> {
    return (await this.entry(runId, eventsPath)).counters;
  }

  /** a run that just finished: its index and counters as its live timeline built them from the same records */
  adopt(runId: string, entry: Entry): void {
    this.touch(runId, entry);
  }

  forget(runId: string): void {
    this.entries.delete(runId);
  }

  private async entry(runId: string, eventsPath: string): Promise<Entry> {
    const hit = this.entries.get(runId);
    if (hit) {
      this.touch(runId, hit);
      return hit;
    }
    let pending = this.building.get(runId);
    if (!pending) {
      pending = readEntry(eventsPath);
      this.building.set(runId, pending);
    }
    try {
      const entry = await pending;
      this.touch(runId, entry);
      return entry;
    } finally {
      this.building.delete(runId);
    }
  }

  /** most recently used last, the oldest dropped beyond MAX_CACHED_RUNS */
  private touch(runId: string, entry: Entry): void {
    this.entries.delete(runId);
    this.entries.set(runId, entry);
    while (this.entries.size > MAX_CACHED_RUNS) this.entries.delete(this.entries.keys().next().value!);
  }
}

async function readEntry(eventsPath: string): Promise<Entry> {
  const { records } = await readNdjsonRecords(eventsPath);
  const spans = new TimelineIndexBuilder();
  const counters = new CounterSeriesBuilder();
  for (const r of records) {
    spans.add(r);
    counters.add(r);
  }
  return { index: spans.build(), counters: counters.build() };
}
