/**
 * The decoded likelihood of one strategy of one run, at two levels: an overview of the whole decode
 * (each displayed row the maximum of a block of rows) and a zoomed range of rows, as fine as
 * DETAIL_ROWS allows. The service reads only the rows asked for, so a decode of millions of rows
 * costs two small answers; moving the zoom asks again for the zoomed range only.
 * The address names the run and strategy (#/decode?run=<id>&strategy=<name>): followRoute()
 * opens what it names, and picking a run or strategy changes the address rather than the view.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { LikelihoodRequest, LikelihoodView } from '../../../shared/api';
import { useLatestRequest, type LatestRequest } from '../composables/useLatestRequest';
import { errorText } from '../lib/errorText';
import { useApi } from './apiAccess';
import {
  clampRange, DEFAULT_ZOOM_ROWS, DETAIL_ROWS, firstRange, likelihoodChoices, MAX_COLS, OVERVIEW_ROWS, rangeAround, revived, windowOf,
  windowRange, type RowRange,
} from './likelihoodRows';
import { useNavStore } from './navStore';
import { useResultsStore } from './resultsStore';

function likelihoodState() {
  return {
    runId: ref<string | null>(null),
    strategy: ref<string | null>(null),
    /** values relative to each time row's maximum (the default), or raw log likelihood */
    relative: ref(true),
    overview: shallowRef<LikelihoodView | null>(null),
    /** the zoomed rows; the overview itself where that already shows every row */
    detail: shallowRef<LikelihoodView | null>(null),
    /** the rows asked for in the zoomed view */
    range: ref<RowRange | null>(null),
    /** strategies with a saved likelihood, as the last answer listed them */
    strategies: shallowRef<string[]>([]),
    loading: ref(false),
    detailLoading: ref(false),
    error: ref<string | null>(null),
    detailError: ref<string | null>(null),
  };
}

type LikelihoodState = ReturnType<typeof likelihoodState>;

function likelihoodShape(s: LikelihoodState) {
  const nTime = computed(() => s.overview.value?.nTime ?? 0);
  const windows = computed(() => s.overview.value?.windows ?? null);
  return {
    nTime,
    windows,
    /** the overview shows every row: one chart is enough */
    fullResolution: computed(() => s.overview.value !== null && s.overview.value.rowsPerRow <= 1),
    /** the decode window the zoomed range starts in */
    windowIndex: computed(() => (windows.value && s.range.value ? windowOf(windows.value, s.range.value[0]) : null)),
    /** kept for the strategy and view switches of the same run */
    view: computed(() => s.detail.value),
  };
}

type LikelihoodShape = ReturnType<typeof likelihoodShape>;

function requestOf(s: LikelihoodState, extra: LikelihoodRequest): LikelihoodRequest {
  return { maxCols: MAX_COLS, relative: s.relative.value, ...extra };
}

/** the zoomed range: asked for on its own, so moving it never asks for the overview again */
function useLikelihoodZoom(s: LikelihoodState, shape: LikelihoodShape, detailRequests: LatestRequest) {
  /** shows the rows [start, end) zoomed; clamped to the decode */
  async function zoom(start: number, end: number): Promise<void> {
    const ov = s.overview.value;
    const id = s.runId.value;
    const which = s.strategy.value;
    if (id === null || which === null || ov === null) return;
    const r = clampRange(start, end, ov.nTime);
    s.range.value = r;
    const ticket = detailRequests.next();
    s.detailError.value = null;
    if (shape.fullResolution.value && r[0] === 0 && r[1] === ov.nTime) {
      s.detail.value = ov;
      s.detailLoading.value = false;
      return;
    }
    s.detailLoading.value = true;
    const asked = requestOf(s, { startRow: r[0], endRow: r[1], maxRows: DETAIL_ROWS });
    await ticket.settle(() => useApi().getLikelihood(id, which, asked), {
      onAnswer: (v) => {
        s.detail.value = revived(v);
      },
      onError: (e) => {
        s.detail.value = null;
        s.detailError.value = errorText(e).message;
      },
      onSettled: () => {
        s.detailLoading.value = false;
      },
    });
  }

  /** decode window k, zoomed */
  function showWindow(k: number): Promise<void> {
    if (!shape.windows.value) return Promise.resolve();
    const [start, end] = windowRange(shape.windows.value, shape.nTime.value, k);
    return zoom(start, end);
  }

  /** the zoomed range moved by its own length, back (−1) or on (+1) */
  function step(direction: -1 | 1): Promise<void> {
    if (!s.range.value) return Promise.resolve();
    const [start, end] = s.range.value;
    const length = end - start;
    return zoom(start + direction * length, end + direction * length);
  }

  /** a range of the zoomed length (or a window, where the decode has them) around a row */
  function centerOn(row: number): Promise<void> {
    if (shape.windows.value) return showWindow(windowOf(shape.windows.value, row));
    const length = s.range.value ? s.range.value[1] - s.range.value[0] : DEFAULT_ZOOM_ROWS;
    const [start, end] = rangeAround(row, length, shape.nTime.value);
    return zoom(start, end);
  }

  return { zoom, showWindow, step, centerOn };
}

/** the overview of a run's strategy, then the zoomed range: the same rows as before on the same run, else the first window */
function useLikelihoodLoad(s: LikelihoodState, zoom: (start: number, end: number) => Promise<void>, detailRequests: LatestRequest) {
  const overviewRequests = useLatestRequest();

  async function load(id: string, which: string): Promise<void> {
    const keep = s.runId.value === id ? s.range.value : null;
    const ticket = overviewRequests.next();
    detailRequests.invalidate();
    if (s.runId.value !== id) forgetRows(s);
    s.runId.value = id;
    s.strategy.value = which;
    s.loading.value = true;
    s.detailLoading.value = false;
    s.error.value = null;
    s.detailError.value = null;
    await ticket.settle(async () => revived(await useApi().getLikelihood(id, which, requestOf(s, { maxRows: OVERVIEW_ROWS }))), {
      onAnswer: async (v) => {
        s.overview.value = v;
        s.strategies.value = v.strategies;
        s.loading.value = false;
        const [start, end] = firstRange(v, keep);
        await zoom(start, end);
      },
      onError: (e) => {
        forgetRows(s);
        s.error.value = errorText(e).message;
      },
      onSettled: () => {
        s.loading.value = false;
      },
    });
  }

  function clear(): void {
    overviewRequests.invalidate();
    detailRequests.invalidate();
    forgetRows(s);
    s.runId.value = null;
    s.strategy.value = null;
    s.strategies.value = [];
    s.error.value = null;
    s.detailError.value = null;
    s.loading.value = false;
    s.detailLoading.value = false;
  }

  return { load, clear };
}

function forgetRows(s: LikelihoodState): void {
  s.overview.value = null;
  s.detail.value = null;
  s.range.value = null;
}

/** the run and strategy the address names, and the picks that change the address */
function useLikelihoodRoute(s: LikelihoodState, load: (id: string, which: string) => Promise<void>) {
  /**
   * Shows a run's strategy: the run the address names, else the Results view's; the strategy
   * named, else the one shown for that run already, else the report's first. Asks nothing when
   * that is what is shown (or on its way).
   */
  async function open(run: string | null, which: string | null): Promise<void> {
    const results = useResultsStore();
    const id = run ?? results.runId;
    if (id === null) return;
    if (results.runId !== id) {
      const loaded = results.load(id);
      // without a strategy named, the report says which ones the run has
      if (which === null) await loaded;
    }
    const chosen = which ?? (s.runId.value === id && s.strategy.value !== null ? s.strategy.value : (likelihoodChoices(results.report)[0] ?? 'reference'));
    if (s.runId.value === id && s.strategy.value === chosen && (s.overview.value !== null || s.loading.value)) return;
    await load(id, chosen);
  }

  /** opens what the address names */
  function followRoute(): Promise<void> {
    const { params } = useNavStore();
    return open(params.run ?? null, params.strategy ?? null);
  }

  /** the user picked a run: the address names it, with the strategy shown if the run has it */
  async function pickRun(id: string): Promise<void> {
    const results = useResultsStore();
    await results.load(id);
    const choices = likelihoodChoices(results.report);
    const keep = s.strategy.value !== null && choices.includes(s.strategy.value) ? s.strategy.value : choices[0];
    useNavStore().setParams({ run: id, strategy: keep });
  }

  /** the user picked a strategy of the run shown: the address names both */
  function pickStrategy(which: string): void {
    const run = useNavStore().params.run ?? s.runId.value ?? useResultsStore().runId;
    useNavStore().setParams({ run: run ?? undefined, strategy: which });
  }

  return { open, followRoute, pickRun, pickStrategy };
}

export const useLikelihoodStore = defineStore('likelihood', () => {
  const state = likelihoodState();
  const shape = likelihoodShape(state);
  const detailRequests = useLatestRequest();
  const { zoom, showWindow, step, centerOn } = useLikelihoodZoom(state, shape, detailRequests);
  const { load, clear } = useLikelihoodLoad(state, zoom, detailRequests);
  const { open, followRoute, pickRun, pickStrategy } = useLikelihoodRoute(state, load);

  function selectStrategy(which: string): Promise<void> {
    return state.runId.value === null ? Promise.resolve() : load(state.runId.value, which);
  }

  function setRelative(on: boolean): Promise<void> {
    state.relative.value = on;
    return state.runId.value === null || state.strategy.value === null ? Promise.resolve() : load(state.runId.value, state.strategy.value);
  }

  return {
    ...state,
    ...shape,
    load, zoom, selectStrategy, setRelative, showWindow, step, centerOn, open, followRoute, pickRun, pickStrategy, clear,
  };
});
