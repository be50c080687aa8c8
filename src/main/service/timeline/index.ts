/**
 * Timelines of a run for the track view: the index built from trace records (lanes, depth rows,
 * instants), the windowed query and its thinning, span search and area summaries, counter series
 * for the memory graphs (built by shared/counterSeries.ts, the live page's builder too), the live
 * timeline of a running run with the notices that tell its pages what changed, and the cache of
 * recorded ones.
 *
 * Pure over trace records apart from the cache, which reads events.ndjson through export/. Must not
 * import the rest of the service (store, queue, likelihood, the facade): whoever owns a run hands
 * its records in.
 */
export { LiveNotices, NOTICE_INTERVAL_MS, type LiveNoticesOptions } from './liveNotices';
export { LiveTimeline, type LiveTimelineOptions } from './liveTimeline';
export type { TimelineChange } from './timelineChanges';
export { TimelineCache } from './timelineCache';
export { buildTimelineIndex, TimelineIndexBuilder, type TimelineIndex } from './timelineIndex';
export { MAX_TIMELINE_INSTANTS, MAX_TIMELINE_SPANS, queryTimeline } from './timelineQuery';
export { findSpan, summarizeArea } from './timelineSearch';
