/**
 * The data the next run uses (a preset or a file path) and what the service says about it:
 * summary, validation findings, a light preview for plotting.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, type Ref } from 'vue';
import type { DataSource, PresetName } from '../../../shared/config';
import { useLatestRequest } from '../composables/useLatestRequest';
import { errorText } from '../lib/errorText';
import { withDecodingWindow, type InspectionView } from '../lib/previewWindow';
import { useApi } from './apiAccess';

export const DEFAULT_PRESET: Extract<DataSource, { kind: 'preset' }> = {
  kind: 'preset', name: 'small', seed: 42, features: 2, featureScale: 1,
};

export function sameSource(a: DataSource, b: DataSource): boolean {
  if (a.kind === 'file') return b.kind === 'file' && a.path === b.path;
  if (b.kind === 'file') return false;
  return a.name === b.name && a.seed === b.seed && a.features === b.features && a.featureScale === b.featureScale;
}

/** what the service says about the chosen source; an older answer must not overwrite a newer choice */
function useSourceInspection(source: Ref<DataSource>) {
  const inspection = shallowRef<InspectionView | null>(null);
  const loading = ref(false);
  const error = ref<string | null>(null);
  const inspections = useLatestRequest();

  const hasErrors = computed(() => inspection.value?.findings.some((f) => f.severity === 'error') ?? false);
  /** a run may start when the current source was inspected and nothing blocks it */
  const ready = computed(
    () => inspection.value !== null && inspection.value.summary !== null && sameSource(inspection.value.source, source.value) && !hasErrors.value,
  );

  function inspect(): Promise<void> {
    const ticket = inspections.next();
    const asked = source.value;
    loading.value = true;
    error.value = null;
    return ticket.settle(() => useApi().inspectData(asked), {
      onAnswer: (result) => {
        inspection.value = withDecodingWindow(result);
      },
      onError: (e) => {
        inspection.value = null;
        error.value = errorText(e).message;
      },
      onSettled: () => {
        loading.value = false;
      },
    });
  }

  return { inspection, loading, error, hasErrors, ready, inspect };
}

export const useDataStore = defineStore('data', () => {
  const source = ref<DataSource>({ ...DEFAULT_PRESET });
  const { inspection, loading, error, hasErrors, ready, inspect } = useSourceInspection(source);

  function selectPreset(name: PresetName, options: Partial<Omit<Extract<DataSource, { kind: 'preset' }>, 'kind' | 'name'>> = {}): Promise<void> {
    const prev = source.value.kind === 'preset' ? source.value : DEFAULT_PRESET;
    source.value = {
      kind: 'preset', name,
      seed: options.seed ?? prev.seed,
      features: options.features ?? prev.features,
      featureScale: options.featureScale ?? prev.featureScale,
    };
    return inspect();
  }

  function selectFile(path: string): Promise<void> {
    const trimmed = path.trim();
    if (trimmed.length === 0) {
      error.value = 'Enter the path of a .npz or .nwb file on the machine that runs the profiler.';
      return Promise.resolve();
    }
    source.value = { kind: 'file', path: trimmed };
    return inspect();
  }

  /** desktop: a native dialog; web mode answers null and the path field stays the way in */
  async function browse(): Promise<boolean> {
    error.value = null;
    try {
      const path = await useApi().pickDataFile();
      if (path === null) return false;
      await selectFile(path);
      return true;
    } catch (e) {
      error.value = errorText(e).message;
      return false;
    }
  }

  return { source, inspection, loading, error, hasErrors, ready, inspect, selectPreset, selectFile, browse };
});
