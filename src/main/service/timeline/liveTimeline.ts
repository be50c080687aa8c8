/**
 * The timeline and counter series of a run while it records, kept in memory: the run appends each
 * batch of trace records as it arrives, and queries answer from memory without reading
 * events.ndjson (that file is for finished runs and for recovery, read by TimelineCache).
 *
 * Records are sorted into lanes and interned as they arrive; the depth rows are derived again only
 * when a query comes after records (or the open spans) changed. A big run's rebuild is spaced out
 * so that rebuilding takes at most about a fifth of the time, whatever the view asks.
 *
 * Many pages watching one run ask for the same window at the same width between two batches: the
 * answer for one index is kept per window and width, so they cost one query together, and a new
 * index (new records, spans opened or closed) starts afresh.
 *
 * Pages are not sent the records: they hear what changed (timelineChanges.ts) and ask for the
 * window they show. The counter series are built with the page's own builder (shared/), so the
 * live graph and this answer agree.
 */
import type { CounterSeries, TimelineRequest, TimelineView } from '../../../shared/api';
import { CounterSeriesBuilder, type ProcessCounterSeries } from '../../../shared/counterSeries';
import type { OpenSpan, TraceRecord } from '../../../shared/events';
import { isTraceRecord } from '../../export';
import { LiveNotices } from './liveNotices';
import { TimelineChanges, type TimelineChange } from './timelineChanges';
import { TimelineIndexBuilder, type TimelineIndex } from './timelineIndex';
import { queryTimeline } from './timelineQuery';

/** a rebuild waits this many times its previous duration after the previous one */
const REBUILD_GAP_FACTOR = 4;
/** answers kept for one index: a few pages at different widths, or zoomed in, each keep theirs */
const MAX_KEPT_ANSWERS = 16;

export interface LiveTimelineOptions {
  /** the clock that spaces rebuilds out (tests inject one) */
  nowMs?: () => number;
  /** receives the notices of what changed, spaced out by LiveNotices (absent: takeChanges() answers them) */
  notify?: (change: TimelineChange) => void;
  /** hold the notices until releaseNotices() (LiveNotices' `held`) */
  holdNotices?: boolean;
}

interface Built {
  index: TimelineIndex;
  recordCount: number;
  openKey: string;
  builtAtMs: number;
  buildMs: number;
}

export class LiveTimeline {
  private readonly spans = new TimelineIndexBuilder();
  private readonly counters = new CounterSeriesBuilder();
  private readonly changes = new TimelineChanges();
  private readonly notices: LiveNotices | undefined;
  private readonly nowMs: () => number;
  private built: Built | undefined;
  /** answers computed from `answersFrom`, by window and width; the same objects go to every asker */
  private answers = new Map<string, TimelineView>();
  private answersFrom: TimelineIndex | undefined;

  /** `openSpans` answers what the run has begun and not ended, asked at each query */
  constructor(private readonly openSpans: () => readonly OpenSpan[], options: LiveTimelineOptions = {}) {
    this.nowMs = options.nowMs ?? (() => performance.now());
    const notify = options.notify;
    this.notices = notify && new LiveNotices({ take: () => this.takeChanges(), send: notify, held: options.holdNotices });
  }

  /** trace records appended so far */
  get recordCount(): number {
    return this.spans.recordCount;
  }

  /** Takes one batch as the run received it; what a file reader would drop is dropped here too. */
  append(records: readonly TraceRecord[]): void {
    for (const r of records) {
      if (!isTraceRecord(r)) continue;
      this.spans.add(r);
      this.counters.add(r);
      this.changes.note(r);
    }
    this.notices?.changed();
  }

  /** Ends the hold on notices: what changed while held goes out now. */
  releaseNotices(): void {
    this.notices?.release();
  }

  /** Sends the notice of what changed now, not when the interval is up: before the run's status, say. */
  flushNotices(): void {
    this.notices?.flush();
  }

  /** What changed since the previous call (records appended, spans opened or closed), as notices' bodies; empty when nothing did. */
  takeChanges(): TimelineChange[] {
    return this.changes.take(this.openSpans());
  }

  /**
   * The same view queryTimeline gives for these records read back from the file. Asked again with
   * the same window and width while the index is unchanged, it answers the same object, frozen:
   * callers send it on, and the WebSocket serialises a frozen answer once for every page.
   */
  query(request: TimelineRequest): TimelineView {
    const index = this.index();
    if (index !== this.answersFrom) {
      this.answers = new Map();
      this.answersFrom = index;
    }
    const key = `${request.startUs}:${request.endUs}:${request.widthPx}`;
    const kept = this.answers.get(key);
    if (kept) return kept;
    const view = Object.freeze(queryTimeline(index, request));
    if (this.answers.size >= MAX_KEPT_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, view);
    return view;
  }

  /**
   * The finished run's index and counters, built as a reader of events.ndjson builds them (no
   * open spans, every counter point): handed to the TimelineCache when the run ends, so the first
   * pages to look at it afterwards do not stall the service re-reading the file.
   */
  settled(): { index: TimelineIndex; counters: CounterSeries[] } {
    return { index: this.spans.build(), counters: this.counters.build() };
  }

  counterSeries(maxPoints?: number): CounterSeries[] {
    return this.counters.build(maxPoints);
  }

  /** As counterSeries, each with the process that recorded it, as notices name them: what a page joining late continues with what it hears. */
  counterSeriesByProcess(maxPoints?: number): ProcessCounterSeries[] {
    return this.counters.withProcess(maxPoints);
  }

  /** The index of what arrived so far, rebuilt when records or open spans changed. */
  index(): TimelineIndex {
    // asked after the records: a span they hold complete is then no longer listed open
    const open = this.openSpans();
    const openKey = JSON.stringify(open);
    const now = this.nowMs();
    const last = this.built;
    if (last && last.recordCount === this.recordCount && last.openKey === openKey) return last.index;
    if (last && now - last.builtAtMs < last.buildMs * REBUILD_GAP_FACTOR) return last.index;
    const index = this.spans.build(open);
    const doneMs = this.nowMs();
    this.built = { index, recordCount: this.recordCount, openKey, builtAtMs: doneMs, buildMs: doneMs - now };
    return index;
  }
}
