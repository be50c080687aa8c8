/**
 * The run the Results, Likelihood and Export views look at, and its detail (config, entry, report).
 * A run named by a link may be gone: `missing` says so, and the error is one plain sentence.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef } from 'vue';
import type { RunDetail } from '../../../shared/api';
import { errorText } from '../lib/errorText';
import { useApi } from './apiAccess';
import { missingRunOf, missingRunText } from './missingRun';

export const useResultsStore = defineStore('results', () => {
  const runId = ref<string | null>(null);
  const detail = shallowRef<RunDetail | null>(null);
  const loading = ref(false);
  const error = ref<string | null>(null);
  /** the run asked for does not exist (deleted, or a mistyped link) */
  const missing = ref(false);
  let generation = 0;

  const report = computed(() => detail.value?.report ?? null);

  function fail(e: unknown, id: string): void {
    detail.value = null;
    missing.value = missingRunOf(e, [id]) !== null;
    error.value = missing.value ? missingRunText(id) : errorText(e).message;
  }

  async function load(id: string): Promise<void> {
    const ticket = ++generation;
    runId.value = id;
    loading.value = true;
    error.value = null;
    missing.value = false;
    try {
      const d = await useApi().getRun(id);
      if (ticket === generation) detail.value = markRaw(d);
    } catch (e) {
      if (ticket === generation) fail(e, id);
    } finally {
      if (ticket === generation) loading.value = false;
    }
  }

  function reload(): Promise<void> {
    return runId.value === null ? Promise.resolve() : load(runId.value);
  }

  function clear(): void {
    generation++;
    runId.value = null;
    detail.value = null;
    error.value = null;
    missing.value = false;
    loading.value = false;
  }

  return { runId, detail, report, loading, error, missing, load, reload, clear };
});
