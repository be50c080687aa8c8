/**
 * The run the Results, Likelihood and Export views look at, and its detail (config, entry, report).
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef } from 'vue';
import type { RunDetail } from '../../../shared/api';
import { errorText } from '../lib/errorText';
import { useApi } from './apiAccess';

export const useResultsStore = defineStore('results', () => {
  const runId = ref<string | null>(null);
  const detail = shallowRef<RunDetail | null>(null);
  const loading = ref(false);
  const error = ref<string | null>(null);
  let generation = 0;

  const report = computed(() => detail.value?.report ?? null);

  async function load(id: string): Promise<void> {
    const ticket = ++generation;
    runId.value = id;
    loading.value = true;
    error.value = null;
    try {
      const d = await useApi().getRun(id);
      if (ticket === generation) detail.value = markRaw(d);
    } catch (e) {
      if (ticket === generation) {
        detail.value = null;
        error.value = errorText(e).message;
      }
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
    loading.value = false;
  }

  return { runId, detail, report, loading, error, load, reload, clear };
});
