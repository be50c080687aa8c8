/**
 * The sweeps of the runs folder (`kde-profiler sweep`) and the one shown: its curves, slopes and
 * crossovers. The address names the sweep shown (`#/sweeps?sweep=<id>`).
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef } from 'vue';
import type { SweepResult, SweepSummary } from '../../../shared/sweep';
import { useLatestRequest } from '../composables/useLatestRequest';
import { errorText } from '../lib/errorText';
import { useApi } from './apiAccess';

export const useSweepsStore = defineStore('sweeps', () => {
  const sweeps = shallowRef<SweepSummary[]>([]);
  const loading = ref(false);
  const error = ref<string | null>(null);
  const sweep = shallowRef<SweepResult | null>(null);
  const opening = ref(false);
  const sweepError = ref<string | null>(null);
  /** what the chart shows: 'total', 'encode', 'decode' or a stage */
  const metric = ref('total');
  const opens = useLatestRequest();

  const sweepId = computed(() => sweep.value?.id ?? null);

  async function refresh(): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      const list = await useApi().listSweeps();
      sweeps.value = markRaw([...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt)));
    } catch (e) {
      error.value = errorText(e).message;
    } finally {
      loading.value = false;
    }
  }

  /** shows a sweep; a later call wins over one still answering */
  function open(id: string): Promise<void> {
    const ticket = opens.next();
    opening.value = true;
    sweepError.value = null;
    return ticket.settle(() => useApi().getSweep(id), {
      onAnswer: (found) => {
        sweep.value = markRaw(found);
        // a metric the new sweep lacks (a stage of another strategy) falls back to the total
        if (!found.strategies.some((s) => s.series.some((x) => x.metric === metric.value))) metric.value = 'total';
      },
      onError: (e) => {
        sweep.value = null;
        sweepError.value = errorText(e).message;
      },
      onSettled: () => {
        opening.value = false;
      },
    });
  }

  return { sweeps, loading, error, sweep, sweepId, opening, sweepError, metric, refresh, open };
});
