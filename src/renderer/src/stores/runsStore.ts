/**
 * The run history from the run store: list, delete, and a side-by-side comparison of two runs
 * with the regression verdict.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef } from 'vue';
import type { Comparison, RunIndexEntry } from '../../../shared/api';
import { errorText } from '../lib/errorText';
import { useApi } from './apiAccess';

export const DEFAULT_THRESHOLD_PCT = 10;

export const useRunsStore = defineStore('runs', () => {
  const runs = shallowRef<RunIndexEntry[]>([]);
  const loading = ref(false);
  const error = ref<string | null>(null);
  /** ids ticked for comparison, oldest tick first; at most two */
  const selected = ref<string[]>([]);
  const thresholdPct = ref(DEFAULT_THRESHOLD_PCT);
  const comparison = shallowRef<Comparison | null>(null);
  const comparing = ref(false);
  const compareError = ref<string | null>(null);

  const canCompare = computed(() => selected.value.length === 2);

  async function refresh(): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      const list = await useApi().listRuns();
      // newest first, whatever order the store keeps
      runs.value = markRaw([...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt)));
      selected.value = selected.value.filter((id) => list.some((r) => r.id === id));
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
      runs.value = markRaw(runs.value.filter((r) => r.id !== id));
      selected.value = selected.value.filter((s) => s !== id);
      if (comparison.value && (comparison.value.a.id === id || comparison.value.b.id === id)) comparison.value = null;
      return true;
    } catch (e) {
      error.value = errorText(e).message;
      return false;
    }
  }

  /** ticking a third run drops the oldest tick, so two stay selected */
  function toggleSelected(id: string): void {
    if (selected.value.includes(id)) selected.value = selected.value.filter((s) => s !== id);
    else selected.value = [...selected.value, id].slice(-2);
  }

  async function compare(a?: string, b?: string): Promise<void> {
    const [ra, rb] = a !== undefined && b !== undefined ? [a, b] : selected.value;
    if (ra === undefined || rb === undefined) {
      compareError.value = 'Select two runs to compare.';
      return;
    }
    comparing.value = true;
    compareError.value = null;
    try {
      comparison.value = markRaw(await useApi().compareRuns(ra, rb, thresholdPct.value));
    } catch (e) {
      comparison.value = null;
      compareError.value = errorText(e).message;
    } finally {
      comparing.value = false;
    }
  }

  return {
    runs, loading, error, selected, thresholdPct, comparison, comparing, compareError, canCompare,
    refresh, remove, toggleSelected, compare,
  };
});
