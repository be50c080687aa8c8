/**
 * What this machine offers: versions, backends with availability, presets, and whether runs can
 * start in the service's runs folder (a read-only one is browsed only). Loaded once.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { PresetInfo, SystemInfo } from '../../../shared/api';
import { runsFolderOf, type RunsFolderState } from '../../../shared/serverState';
import { errorText } from '../lib/errorText';
import { useApi } from './apiAccess';

export const useSystemStore = defineStore('system', () => {
  const info = shallowRef<SystemInfo | null>(null);
  const presets = shallowRef<PresetInfo[]>([]);
  const loading = ref(false);
  const error = ref<string | null>(null);
  let inFlight: Promise<void> | null = null;
  /** undefined until the service answered, and from a service too old to say */
  const runsFolder = computed<RunsFolderState | undefined>(() => (info.value ? runsFolderOf(info.value) : undefined));

  async function fetchAll(): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      const api = useApi();
      const [i, p] = await Promise.all([api.getInfo(), api.listPresets()]);
      info.value = i;
      presets.value = p;
    } catch (e) {
      error.value = errorText(e).message;
    } finally {
      loading.value = false;
    }
  }

  /** loads once; later calls share the first answer, a failed load may be retried */
  function load(force = false): Promise<void> {
    if (!force && (info.value !== null || inFlight)) return inFlight ?? Promise.resolve();
    inFlight = fetchAll().finally(() => (inFlight = null));
    return inFlight;
  }

  return { info, presets, loading, error, runsFolder, load };
});
