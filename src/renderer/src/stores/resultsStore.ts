/**
 * The run the Results, Likelihood and Export views look at, and its detail (config, entry, report).
 * A run named by a link may be gone: `missing` says so, and the error is one plain sentence.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef } from 'vue';
import type { RunDetail } from '../../../shared/api';
import { useLatestRequest } from '../composables/useLatestRequest';
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
  const loads = useLatestRequest();

  const report = computed(() => detail.value?.report ?? null);

  function fail(e: unknown, id: string): void {
    detail.value = null;
    missing.value = missingRunOf(e, [id]) !== null;
    error.value = missing.value ? missingRunText(id) : errorText(e).message;
  }

  function load(id: string): Promise<void> {
    const ticket = loads.next();
    runId.value = id;
    loading.value = true;
    error.value = null;
    missing.value = false;
    return ticket.settle(() => useApi().getRun(id), {
      onAnswer: (d) => {
        detail.value = markRaw(d);
      },
      onError: (e) => fail(e, id),
      onSettled: () => {
        loading.value = false;
      },
    });
  }

  function reload(): Promise<void> {
    return runId.value === null ? Promise.resolve() : load(runId.value);
  }

  function clear(): void {
    loads.invalidate();
    runId.value = null;
    detail.value = null;
    error.value = null;
    missing.value = false;
    loading.value = false;
  }

  return { runId, detail, report, loading, error, missing, load, reload, clear };
});
