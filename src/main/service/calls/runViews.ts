/**
 * The views of one run's recording: its timeline (a window, a span search, an area summary), its
 * counter series, its saved likelihoods and its posterior (a 2-D decode's also as a map per row).
 * A running run answers from memory; a recorded one from its files, read once and cached.
 */
import type { CounterSeries, LikelihoodView, ProfilerApi, SpanAreaSummary, SpanSearchResult, TimelineView } from '../../../shared/api';
import { posteriorRequest, type PosteriorView } from '../../../shared/posteriorView';
import { posteriorMapRequest, type PosteriorMap } from '../../../shared/posteriorViewMap';
import { likelihoodRequest, likelihoodView, readAxes } from '../likelihood';
import { posteriorMap, posteriorView, PosteriorGrids } from '../posterior';
import type { ServiceCore } from '../serviceCore';
import { RUN_FILES } from '../store';
import { findSpan, queryTimeline, summarizeArea, type LiveTimeline, type TimelineIndex } from '../timeline';
import { likelihoodName, spanAreaRequest, spanSearchRequest, timelineRequest } from '../validate';

type RunViews = Pick<ProfilerApi, 'getTimeline' | 'findSpan' | 'summarizeArea' | 'getCounters' | 'getLikelihood' | 'getPosterior' | 'getPosteriorMap'>;

/** a decode's posterior: thinned over time, and a 2-D decode's map at one row */
function posteriorViews({ store, runId }: ServiceCore): Pick<RunViews, 'getPosterior' | 'getPosteriorMap'> {
  // a 2-D decode's grid, read from its run folder (or, for an older run, its dataset) once for all the maps a page asks for
  const grids = new PosteriorGrids();
  const gridOf = (id: string) => (expect: Parameters<PosteriorGrids['of']>[1]) =>
    grids.of(async () => (await store.config(id)).data, expect, () => readAxes(store.dir(id)));
  return {
    async getPosterior(v, request = {}): Promise<PosteriorView> {
      const id = await runId(v);
      const req = posteriorRequest(request);
      await store.status(id);
      return posteriorView(store.dir(id), id, req, { grid: gridOf(id) });
    },

    async getPosteriorMap(v, request): Promise<PosteriorMap> {
      const id = await runId(v);
      const req = posteriorMapRequest(request);
      await store.status(id);
      return posteriorMap(store.dir(id), id, req, gridOf(id));
    },
  };
}

export function runViews(core: ServiceCore): RunViews {
  const { store, queue, timelines, otherRuns, runId } = core;
  /** the timeline of a run recording now: this service's, or one another process runs and this one follows */
  const liveTimeline = (id: string) => queue.get(id)?.timeline ?? otherRuns?.timeline(id);

  async function recordedTimelineIndex(id: string): Promise<TimelineIndex | null> {
    if (!(await store.exists(id, RUN_FILES.events))) return null;
    return timelines.get(id, store.file(id, RUN_FILES.events));
  }

  /**
   * A run recording now answers from memory without asking the store: the store looks at the folder
   * again for a run it does not run itself (another process's), and each page watching one asks
   * about four times a second. Any other run must be one the store knows.
   */
  async function liveOrKnown(id: string): Promise<LiveTimeline | undefined> {
    const live = liveTimeline(id);
    if (live) return live;
    await store.status(id);
    // the run may have begun recording while the store looked
    return liveTimeline(id);
  }

  /** the live run's index, or a finished run's read once; null before anything was recorded */
  async function timelineIndexOf(id: string): Promise<TimelineIndex | null> {
    const live = await liveOrKnown(id);
    if (live) return live.index();
    return recordedTimelineIndex(id);
  }

  return {
    async getTimeline(v, request): Promise<TimelineView> {
      const id = await runId(v);
      const req = timelineRequest(request);
      // every page watching a live run asks for much the same view: the run answers it once
      const live = await liveOrKnown(id);
      if (live) return live.query(req);
      const index = await recordedTimelineIndex(id);
      // queued, or traced off: nothing recorded yet is an empty timeline, not an error
      if (!index) return { startUs: req.startUs, endUs: req.endUs, totalUs: 0, lanes: [], spans: [], instants: [], totalEvents: 0 };
      return queryTimeline(index, req);
    },

    async findSpan(v, request): Promise<SpanSearchResult> {
      const id = await runId(v);
      const req = spanSearchRequest(request);
      const index = await timelineIndexOf(id);
      return index ? findSpan(index, req) : { total: 0, match: null, ordinal: 0 };
    },

    async summarizeArea(v, request): Promise<SpanAreaSummary> {
      const id = await runId(v);
      const req = spanAreaRequest(request);
      const index = await timelineIndexOf(id);
      return index ? summarizeArea(index, req) : { startUs: req.startUs, endUs: req.endUs, lanes: 0, spans: 0, rows: [] };
    },

    async getCounters(v): Promise<CounterSeries[]> {
      const id = await runId(v);
      const live = await liveOrKnown(id);
      // with the process of each series: a page joining late adds what it hears next to these
      if (live) return live.counterSeriesByProcess();
      if (!(await store.exists(id, RUN_FILES.events))) return [];
      return timelines.counters(id, store.file(id, RUN_FILES.events));
    },

    async getLikelihood(v, strategy, request = {}): Promise<LikelihoodView> {
      const id = await runId(v);
      const name = likelihoodName(strategy);
      const req = likelihoodRequest(request);
      await store.status(id);
      return likelihoodView(store.dir(id), id, name, req);
    },

    ...posteriorViews(core),
  };
}
