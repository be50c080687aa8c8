/**
 * Timelines of a run for the track view: the index built from trace records (lanes, depth rows,
 * instants), the windowed query and its thinning, span search and area summaries, counter series
 * for the memory graphs, the live timeline of a running run and the cache of recorded ones.
 *
 * Pure over trace records apart from the cache, which reads events.ndjson through export/. Must not
 * import the rest of the service (store, queue, likelihood, the facade): whoever owns a run hands
 * its records in.
 */
export { counterSeries, CounterSeriesBuilder, MAX_COUNTER_POINTS } from './counterSeries';
export { LiveTimeline, type LiveTimelineOptions } from './liveTimeline';
export { TimelineCache } from './timelineCache';
export { buildTimelineIndex, TimelineIndexBuilder, type TimelineIndex } from './timelineIndex';
export { MAX_TIMELINE_INSTANTS, MAX_TIMELINE_SPANS, queryTimeline } from './timelineQuery';
export { findSpan, summarizeArea } from './timelineSearch';
