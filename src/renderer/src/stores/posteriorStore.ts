/**
 * The posterior of a decode run, as the Decode view shows it: the whole decode once, without its
 * raster (the table of non-local periods is read from it), and a range of rows for the charts (the
 * whole decode until the user zooms). A run without a posterior leaves `missing` saying how to get one, and the view
 * shows the likelihood instead.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { PosteriorSource, PosteriorView } from '../../../shared/posteriorView';
import { useLatestRequest, type LatestRequest } from '../composables/useLatestRequest';
import { errorText } from '../lib/errorText';
import { useApi } from './apiAccess';
import {
  bandsOf, DEFAULT_NON_LOCAL_THRESHOLD, periodsOf, POSTERIOR_COLS, POSTERIOR_DETAIL_ROWS, POSTERIOR_OVERVIEW_COLS, POSTERIOR_OVERVIEW_ROWS, rangeAroundPeriod, revivedPosterior,
  type PeriodRow,
} from './posteriorRows';

function posteriorState() {
  return {
    runId: ref<string | null>(null),
    source: ref<PosteriorSource>('acausal'),
    threshold: ref(DEFAULT_NON_LOCAL_THRESHOLD),
    overview: shallowRef<PosteriorView | null>(null),
    detail: shallowRef<PosteriorView | null>(null),
    /** the time rows the charts show */
    range: ref<readonly [number, number] | null>(null),
    loading: ref(false),
    detailLoading: ref(false),
    error: ref<string | null>(null),
    /** why the run has no posterior to show (not a decode, or decoded with --model none) */
    missing: ref<string | null>(null),
  };
}

type PosteriorState = ReturnType<typeof posteriorState>;

/** the rows the charts show: asked for on their own, so zooming never asks for the whole decode again */
function usePosteriorZoom(s: PosteriorState, detailRequests: LatestRequest) {
  return async function zoom(start: number, end: number): Promise<void> {
    const ov = s.overview.value;
    const id = s.runId.value;
    if (!ov || id === null) return;
    const from = Math.max(0, Math.min(ov.nTime - 1, Math.round(start)));
    const to = Math.max(from + 1, Math.min(ov.nTime, Math.round(end)));
    s.range.value = [from, to];
    const ticket = detailRequests.next();
    s.detailLoading.value = true;
    const request = { source: s.source.value, startRow: from, endRow: to, maxRows: POSTERIOR_DETAIL_ROWS, maxCols: POSTERIOR_COLS };
    await ticket.settle(async () => revivedPosterior(await useApi().getPosterior(id, request)), {
      onAnswer: (v) => {
        s.detail.value = v;
      },
      onError: (e) => {
        s.error.value = errorText(e).message;
      },
      onSettled: () => {
        s.detailLoading.value = false;
      },
    });
  };
}

function usePosteriorLoad(s: PosteriorState, zoom: (start: number, end: number) => Promise<void>, detailRequests: LatestRequest) {
  const overviewRequests = useLatestRequest();

  /** the run's posterior, the same rows as before where it is the same run */
  async function load(id: string): Promise<void> {
    const keep = s.runId.value === id ? s.range.value : null;
    const ticket = overviewRequests.next();
    detailRequests.invalidate();
    if (s.runId.value !== id) [s.overview.value, s.detail.value, s.range.value] = [null, null, null];
    s.runId.value = id;
    s.loading.value = true;
    s.error.value = null;
    s.missing.value = null;
    const request = { source: s.source.value, maxRows: POSTERIOR_OVERVIEW_ROWS, maxCols: POSTERIOR_OVERVIEW_COLS };
    await ticket.settle(async () => revivedPosterior(await useApi().getPosterior(id, request)), {
      onAnswer: async (v) => {
        s.overview.value = v;
        s.loading.value = false;
        await zoom(keep?.[0] ?? 0, keep?.[1] ?? v.nTime);
      },
      onError: (e) => {
        [s.overview.value, s.detail.value, s.range.value] = [null, null, null];
        const { code, message } = errorText(e);
        if (code === 'NOT_FOUND') s.missing.value = message;
        else s.error.value = message;
      },
      onSettled: () => {
        s.loading.value = false;
      },
    });
  }
  return load;
}

export const usePosteriorStore = defineStore('posterior', () => {
  const s = posteriorState();
  const detailRequests = useLatestRequest();
  const zoom = usePosteriorZoom(s, detailRequests);
  const load = usePosteriorLoad(s, zoom, detailRequests);

  /** shows the run unless it is what is shown (or on its way) */
  function open(id: string): Promise<void> {
    if (s.runId.value === id && (s.overview.value !== null || s.loading.value || s.missing.value !== null)) return Promise.resolve();
    return load(id);
  }

  function setSource(source: PosteriorSource): Promise<void> {
    s.source.value = source;
    return s.runId.value === null ? Promise.resolve() : load(s.runId.value);
  }

  function setThreshold(t: number): void {
    if (Number.isFinite(t)) s.threshold.value = Math.min(1, Math.max(0, t));
  }

  const periods = computed<PeriodRow[]>(() => periodsOf(s.overview.value, s.threshold.value));
  const bands = computed(() => bandsOf(s.detail.value, s.threshold.value));
  const isDetector = computed(() => s.overview.value?.nonLocalProbability !== undefined);

  function zoomToPeriod(p: PeriodRow): Promise<void> {
    const [from, to] = rangeAroundPeriod(p, s.overview.value?.nTime ?? p.endTimeRow);
    return zoom(from, to);
  }

  return { ...s, load, open, zoom, setSource, setThreshold, zoomToPeriod, periods, bands, isDetector };
});
