/**
 * The run history from the run store, a page at a time (runPages.ts): list, delete, and a
 * side-by-side comparison of two runs with the regression verdict. A comparison is named in the
 * address as `compare=<a>,<b>`. A run whose data was refused before any work (isRefusedInput) is
 * listed but never picked or compared: it has nothing to show.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef, type Ref } from 'vue';
import { isRefusedInput, type Comparison, type RunIndexEntry } from '../../../shared/api';
import { useLatestRequest } from '../composables/useLatestRequest';
import { errorText } from '../lib/errorText';
import { useApi } from './apiAccess';
import { missingRunOf, missingRunText } from './missingRun';
import { useRunPages } from './runPages';

export const DEFAULT_THRESHOLD_PCT = 10;

/** the address's `compare` value of two runs */
export function compareParamOf(a: string, b: string): string {
  return `${a},${b}`;
}

/** `<a>,<b>` from an address into two run ids; null when it is not two non-empty ids */
export function parseCompareParam(text: string): [string, string] | null {
  const parts = text.split(',').map((p) => p.trim());
  return parts.length === 2 && parts[0] && parts[1] ? [parts[0], parts[1]] : null;
}

/** the comparison shown: asked for two runs, the latest request winning */
function useRunComparison(selected: Ref<string[]>, ticked: Ref<[string, string] | null>, thresholdPct: Ref<number>) {
  const comparison = shallowRef<Comparison | null>(null);
  const comparing = ref(false);
  const compareError = ref<string | null>(null);
  const comparisons = useLatestRequest();
  /** the shown comparison as the address names it; null when none is shown */
  const comparedParam = computed(() => (comparison.value ? compareParamOf(comparison.value.a.id, comparison.value.b.id) : null));

  /** compares the two ticked runs, or the two given (which become the ticked ones) */
  async function compare(a?: string, b?: string): Promise<void> {
    const given = a !== undefined && b !== undefined;
    const [ra, rb] = given ? [a, b] : (ticked.value ?? []);
    if (ra === undefined || rb === undefined) {
      compareError.value = 'Select two runs to compare.';
      return;
    }
    if (given) selected.value = [ra, rb];
    const ticket = comparisons.next();
    comparing.value = true;
    compareError.value = null;
    await ticket.settle(() => useApi().compareRuns(ra, rb, thresholdPct.value), {
      onAnswer: (result) => {
        comparison.value = markRaw(result);
      },
      onError: (e) => {
        comparison.value = null;
        const missing = missingRunOf(e, [ra, rb]);
        compareError.value = missing === null ? errorText(e).message : missingRunText(missing);
      },
      onSettled: () => {
        comparing.value = false;
      },
    });
  }

  /** shows the comparison an address names (`<a>,<b>`), unless it is already the one shown */
  async function openComparison(param: string): Promise<void> {
    const ids = parseCompareParam(param);
    if (ids === null) {
      clearComparison();
      compareError.value = `the address asks to compare '${param}': expected two run ids separated by a comma, as Runs makes them.`;
      return;
    }
    if (comparedParam.value === compareParamOf(...ids) && !comparing.value) return;
    await compare(...ids);
  }

  /** takes the comparison off the page (the address no longer names one); the ticks stay */
  function clearComparison(): void {
    comparisons.invalidate();
    comparison.value = null;
    comparing.value = false;
    compareError.value = null;
  }

  return { comparison, comparing, compareError, comparedParam, compare, openComparison, clearComparison };
}

export const useRunsStore = defineStore('runs', () => {
  const loading = ref(false);
  const error = ref<string | null>(null);
  const pages = useRunPages((e) => (error.value = errorText(e).message));
  /** ids ticked for comparison, oldest tick first; at most two */
  const selected = ref<string[]>([]);
  const thresholdPct = ref(DEFAULT_THRESHOLD_PCT);
  const canCompare = computed(() => selected.value.length === 2);

  async function refresh(): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      await pages.reload();
      // a tick on a run that is gone goes too; with the list only partly loaded, compare says which is gone
      if (pages.complete()) selected.value = selected.value.filter((id) => pages.loaded(id) !== undefined);
    } catch (e) {
      error.value = errorText(e).message;
    } finally {
      loading.value = false;
    }
  }

  async function remove(id: string): Promise<boolean> {
    error.value = null;
    try {
      await useApi().deleteRun(id);
      if (!pages.drop(id)) await pages.reload();
      selected.value = selected.value.filter((s) => s !== id);
      const shown = compared.comparison.value;
      if (shown && (shown.a.id === id || shown.b.id === id)) compared.comparison.value = null;
      return true;
    } catch (e) {
      error.value = errorText(e).message;
      return false;
    }
  }

  /**
   * The ticked pair as a comparison reads it, as the CLI's `compare A B` does: A the baseline (the
   * older run), B the candidate (the newer), whichever was ticked first; null until two are ticked.
   */
  const baselineFirst = computed((): [string, string] | null => {
    const [x, y] = selected.value;
    if (x === undefined || y === undefined) return null;
    const [ex, ey] = [pages.loaded(x), pages.loaded(y)];
    // run ids begin with their creation time: they break a tie, and order a pair whose rows are not loaded
    const order = (ex && ey ? ex.createdAt.localeCompare(ey.createdAt) : 0) || x.localeCompare(y);
    return order <= 0 ? [x, y] : [y, x];
  });

  const compared = useRunComparison(selected, baselineFirst, thresholdPct);

  /** ticking a third run drops the oldest tick, so two stay selected; a refused input has nothing to compare */
  function toggleSelected(id: string): void {
    const run = pages.loaded(id);
    if (selected.value.includes(id)) selected.value = selected.value.filter((s) => s !== id);
    else if (!(run && isRefusedInput(run))) selected.value = [...selected.value, id].slice(-2);
  }

  /** the newest page without the refused inputs: what the run pickers of Results, Decode and Export offer */
  const pickable = computed((): RunIndexEntry[] => pages.newest.value.filter((r) => !isRefusedInput(r)));

  return {
    runs: pages.newest, pickable, total: pages.total, loading, error, selected, baselineFirst, thresholdPct, canCompare, ...compared,
    rowAt: pages.rowAt, show: pages.show, refresh, remove, toggleSelected,
  };
});
