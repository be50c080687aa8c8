/**
 * The decoded likelihood of one strategy of one run, at two levels: an overview of the whole decode
 * (each displayed row the maximum of a block of rows) and a zoomed range of rows, as fine as
 * DETAIL_ROWS allows. The service reads only the rows asked for, so a decode of millions of rows
 * costs two small answers; moving the zoom asks again for the zoomed range only.
 * The address names the run and strategy (#/likelihood?run=<id>&strategy=<name>): followRoute()
 * opens what it names, and picking a run or strategy changes the address rather than the view.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef } from 'vue';
import type { LikelihoodRequest, LikelihoodView, LikelihoodWindows } from '../../../shared/api';
import type { Report } from '../../../shared/report';
import { useLatestRequest } from '../composables/useLatestRequest';
import { errorText } from '../lib/errorText';
import { useApi } from './apiAccess';
import { useNavStore } from './navStore';
import { useResultsStore } from './resultsStore';

/** displayed rows of the overview: about one per pixel of a wide chart */
export const OVERVIEW_ROWS = 1000;
/** displayed rows of the zoomed range: ranges up to this long are shown row by row */
export const DETAIL_ROWS = 2000;
export const MAX_COLS = 500;
/** rows first shown zoomed when the decode has no windows to follow */
export const DEFAULT_ZOOM_ROWS = 1000;

export type RowRange = readonly [number, number];

/** the rows of decode window k (window k is [k·rowsPerWindow, …), the last one runs to the end) */
export function windowRange(windows: LikelihoodWindows, nTime: number, k: number): RowRange {
  const i = Math.min(windows.count - 1, Math.max(0, Math.floor(k)));
  const start = Math.min(nTime - 1, i * windows.rowsPerWindow);
  return [start, i === windows.count - 1 ? nTime : Math.min(nTime, start + windows.rowsPerWindow)];
}

/** the decode window holding a row */
export function windowOf(windows: LikelihoodWindows, row: number): number {
  return Math.min(windows.count - 1, Math.max(0, Math.floor(row / windows.rowsPerWindow)));
}

/** whole rows inside [0, nTime), at least one row, keeping the range's length where it can */
export function clampRange(start: number, end: number, nTime: number): RowRange {
  const length = Math.min(nTime, Math.max(1, Math.round(end) - Math.round(start)));
  const s = Math.min(nTime - length, Math.max(0, Math.round(start)));
  return [s, s + length];
}

/** a range of the given length centred on a row */
export function rangeAround(row: number, length: number, nTime: number): RowRange {
  return clampRange(row - Math.floor(length / 2), row - Math.floor(length / 2) + length, nTime);
}

/** the strategies a run's report lists as finished, those that saved a likelihood first */
export function likelihoodChoices(report: Report | null): string[] {
  const list = report?.strategies.filter((s) => s.status === 'ok') ?? [];
  return [...list.filter((s) => s.likelihoodFile), ...list.filter((s) => !s.likelihoodFile)].map((s) => String(s.strategy));
}

/** −∞ and NaN arrive over the WebSocket as null: back to numbers the charts can test */
function revived(v: LikelihoodView): LikelihoodView {
  const num = (xs: readonly (number | null)[], none: number): number[] => xs.map((x) => x ?? none);
  const out: LikelihoodView = {
    ...v,
    values: num(v.values, -Infinity),
    time: num(v.time, Number.NaN),
    binCenters: num(v.binCenters, Number.NaN),
    decodedPosition: num(v.decodedPosition, Number.NaN),
  };
  if (v.truePosition) out.truePosition = num(v.truePosition, Number.NaN);
  return markRaw(out);
}

export const useLikelihoodStore = defineStore('likelihood', () => {
  const runId = ref<string | null>(null);
  const strategy = ref<string | null>(null);
  /** values relative to each time row's maximum (the default), or raw log likelihood */
  const relative = ref(true);
  const overview = shallowRef<LikelihoodView | null>(null);
  /** the zoomed rows; the overview itself where that already shows every row */
  const detail = shallowRef<LikelihoodView | null>(null);
  /** the rows asked for in the zoomed view */
  const range = ref<RowRange | null>(null);
  /** strategies with a saved likelihood, as the last answer listed them */
  const strategies = shallowRef<string[]>([]);
  const loading = ref(false);
  const detailLoading = ref(false);
  const error = ref<string | null>(null);
  const detailError = ref<string | null>(null);
  const overviewRequests = useLatestRequest();
  const detailRequests = useLatestRequest();

  const nTime = computed(() => overview.value?.nTime ?? 0);
  const windows = computed(() => overview.value?.windows ?? null);
  /** the overview shows every row: one chart is enough */
  const fullResolution = computed(() => overview.value !== null && overview.value.rowsPerRow <= 1);
  /** the decode window the zoomed range starts in */
  const windowIndex = computed(() => (windows.value && range.value ? windowOf(windows.value, range.value[0]) : null));
  /** kept for the strategy and view switches of the same run */
  const view = computed(() => detail.value);

  function request(extra: LikelihoodRequest): LikelihoodRequest {
    return { maxCols: MAX_COLS, relative: relative.value, ...extra };
  }

  /** shows the rows [start, end) zoomed; clamped to the decode */
  async function zoom(start: number, end: number): Promise<void> {
    const ov = overview.value;
    if (runId.value === null || strategy.value === null || ov === null) return;
    const r = clampRange(start, end, ov.nTime);
    range.value = r;
    const ticket = detailRequests.next();
    detailError.value = null;
    if (fullResolution.value && r[0] === 0 && r[1] === ov.nTime) {
      detail.value = ov;
      detailLoading.value = false;
      return;
    }
    detailLoading.value = true;
    const asked = request({ startRow: r[0], endRow: r[1], maxRows: DETAIL_ROWS });
    const id = runId.value;
    const which = strategy.value;
    await ticket.settle(() => useApi().getLikelihood(id, which, asked), {
      onAnswer: (v) => {
        detail.value = revived(v);
      },
      onError: (e) => {
        detail.value = null;
        detailError.value = errorText(e).message;
      },
      onSettled: () => {
        detailLoading.value = false;
      },
    });
  }

  function firstRange(ov: LikelihoodView, keep: RowRange | null): RowRange {
    if (keep && keep[1] <= ov.nTime) return keep;
    if (ov.rowsPerRow <= 1) return [0, ov.nTime];
    if (ov.windows) return windowRange(ov.windows, ov.nTime, 0);
    return [0, Math.min(ov.nTime, DEFAULT_ZOOM_ROWS)];
  }

  /** the overview of a run's strategy, then the zoomed range: the same rows as before on the same run, else the first window */
  async function load(id: string, which: string): Promise<void> {
    const keep = runId.value === id ? range.value : null;
    const ticket = overviewRequests.next();
    detailRequests.invalidate();
    if (runId.value !== id) {
      overview.value = null;
      detail.value = null;
      range.value = null;
    }
    runId.value = id;
    strategy.value = which;
    loading.value = true;
    detailLoading.value = false;
    error.value = null;
    detailError.value = null;
    await ticket.settle(async () => revived(await useApi().getLikelihood(id, which, request({ maxRows: OVERVIEW_ROWS }))), {
      onAnswer: async (v) => {
        overview.value = v;
        strategies.value = v.strategies;
        loading.value = false;
        const [start, end] = firstRange(v, keep);
        await zoom(start, end);
      },
      onError: (e) => {
        overview.value = null;
        detail.value = null;
        range.value = null;
        error.value = errorText(e).message;
      },
      onSettled: () => {
        loading.value = false;
      },
    });
  }

  function selectStrategy(which: string): Promise<void> {
    return runId.value === null ? Promise.resolve() : load(runId.value, which);
  }

  function setRelative(on: boolean): Promise<void> {
    relative.value = on;
    return runId.value === null || strategy.value === null ? Promise.resolve() : load(runId.value, strategy.value);
  }

  /** decode window k, zoomed */
  function showWindow(k: number): Promise<void> {
    if (!windows.value) return Promise.resolve();
    const [start, end] = windowRange(windows.value, nTime.value, k);
    return zoom(start, end);
  }

  /** the zoomed range moved by its own length, back (−1) or on (+1) */
  function step(direction: -1 | 1): Promise<void> {
    if (!range.value) return Promise.resolve();
    const [start, end] = range.value;
    const length = end - start;
    return zoom(start + direction * length, end + direction * length);
  }

  /** a range of the zoomed length (or a window, where the decode has them) around a row */
  function centerOn(row: number): Promise<void> {
    if (windows.value) return showWindow(windowOf(windows.value, row));
    const length = range.value ? range.value[1] - range.value[0] : DEFAULT_ZOOM_ROWS;
    const [start, end] = rangeAround(row, length, nTime.value);
    return zoom(start, end);
  }

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
    const chosen = which ?? (runId.value === id && strategy.value !== null ? strategy.value : (likelihoodChoices(results.report)[0] ?? 'reference'));
    if (runId.value === id && strategy.value === chosen && (overview.value !== null || loading.value)) return;
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
    const keep = strategy.value !== null && choices.includes(strategy.value) ? strategy.value : choices[0];
    useNavStore().setParams({ run: id, strategy: keep });
  }

  /** the user picked a strategy of the run shown: the address names both */
  function pickStrategy(which: string): void {
    const run = useNavStore().params.run ?? runId.value ?? useResultsStore().runId;
    useNavStore().setParams({ run: run ?? undefined, strategy: which });
  }

  function clear(): void {
    overviewRequests.invalidate();
    detailRequests.invalidate();
    runId.value = null;
    strategy.value = null;
    overview.value = null;
    detail.value = null;
    range.value = null;
    strategies.value = [];
    error.value = null;
    detailError.value = null;
    loading.value = false;
    detailLoading.value = false;
  }

  return {
    runId, strategy, relative, overview, detail, view, range, strategies, loading, detailLoading, error, detailError,
    nTime, windows, fullResolution, windowIndex,
    load, zoom, selectStrategy, setRelative, showWindow, step, centerOn, open, followRoute, pickRun, pickStrategy, clear,
  };
});
