/**
 * The decoded likelihood of one strategy of one run, for the heatmap; switching strategy asks
 * the service again (views are decimated there, so each answer is small).
 */
import { defineStore } from 'pinia';
import { markRaw, ref, shallowRef } from 'vue';
import type { LikelihoodView } from '../../../shared/api';
import { errorText } from '../lib/errorText';
import { useApi } from './apiAccess';

export const useLikelihoodStore = defineStore('likelihood', () => {
  const runId = ref<string | null>(null);
  const strategy = ref<string | null>(null);
  const view = shallowRef<LikelihoodView | null>(null);
  /** strategies with a saved likelihood, as the last answer listed them */
  const strategies = shallowRef<string[]>([]);
  const loading = ref(false);
  const error = ref<string | null>(null);
  let generation = 0;

  async function load(id: string, which: string): Promise<void> {
    const ticket = ++generation;
    runId.value = id;
    strategy.value = which;
    loading.value = true;
    error.value = null;
    try {
      const v = await useApi().getLikelihood(id, which);
      if (ticket !== generation) return;
      view.value = markRaw(v);
      strategies.value = v.strategies;
    } catch (e) {
      if (ticket !== generation) return;
      view.value = null;
      error.value = errorText(e).message;
    } finally {
      if (ticket === generation) loading.value = false;
    }
  }

  function selectStrategy(which: string): Promise<void> {
    return runId.value === null ? Promise.resolve() : load(runId.value, which);
  }

  function clear(): void {
    generation++;
    runId.value = null;
    strategy.value = null;
    view.value = null;
    strategies.value = [];
    error.value = null;
    loading.value = false;
  }

  return { runId, strategy, view, strategies, loading, error, load, selectStrategy, clear };
});
