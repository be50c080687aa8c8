/**
 * The NWB mapping step: scans the opened file(s), keeps the choices the form edits, saves them as a
 * recipe next to the data file and has the data store inspect that recipe, and exports what was
 * mapped as clusterless-npz/1, asking before it replaces a file already there. A .npz file or a
 * preset has no mapping step: the state is cleared.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch, type ComputedRef } from 'vue';
import type { DataSource } from '../../../shared/config';
import type { NpzExport, NwbScanView } from '../../../shared/nwb';
import { useLatestRequest, type LatestRequest } from '../composables/useLatestRequest';
import { errorText } from '../lib/errorText';
import { choosePosition, initialMapping, isMappableFile, toRecipe, type MappingChoice, type MappingState, type RecipeDraft } from '../mapping';
import { useApi } from './apiAccess';
import { useDataStore } from './dataStore';

/** An export that found a file at its output: the service's words naming it, and the output asked for (null: next to the data file). */
export interface ReplaceQuestion {
  message: string;
  out: string | null;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function mappingState() {
  return {
    view: shallowRef<NwbScanView | null>(null),
    /** what the form edits (deeply reactive: it is small) */
    state: ref<MappingState | null>(null),
    /** the paths the current scan was asked for, as given */
    asked: ref<string[]>([]),
    scanning: ref(false),
    saving: ref(false),
    exporting: ref(false),
    error: ref<string | null>(null),
    /** the recipe file last saved by Apply */
    appliedPath: ref<string | null>(null),
    exportPath: ref(''),
    exported: shallowRef<NpzExport | null>(null),
    /** set while the person decides whether the export may replace the file it found */
    replaceQuestion: shallowRef<ReplaceQuestion | null>(null),
  };
}

type MappingStoreState = ReturnType<typeof mappingState>;

/** the recipe the file at appliedPath holds, as JSON: an export of unchanged choices saves nothing */
interface AppliedRecipe {
  json: string | null;
}

function forgetApplied(s: MappingStoreState, applied: AppliedRecipe): void {
  s.appliedPath.value = null;
  applied.json = null;
}

/** no mapping step: a .npz file or a preset, or the step starting over */
function clearMapping(s: MappingStoreState, applied: AppliedRecipe, scans: LatestRequest): void {
  scans.invalidate();
  s.view.value = null;
  s.state.value = null;
  s.asked.value = [];
  s.error.value = null;
  s.exported.value = null;
  s.replaceQuestion.value = null;
  s.scanning.value = false;
  forgetApplied(s, applied);
}

/** the scan of the chosen file(s) and the choices the form makes on it */
function useMappingScan(s: MappingStoreState, applied: AppliedRecipe, scans: LatestRequest) {
  function scan(paths: string[]): Promise<void> {
    const ticket = scans.next();
    s.asked.value = paths;
    s.scanning.value = true;
    s.error.value = null;
    s.exported.value = null;
    s.replaceQuestion.value = null;
    return ticket.settle(() => useApi().scanData(paths), {
      onAnswer: (result) => {
        s.view.value = result;
        s.state.value = initialMapping(result);
      },
      onError: (e) => {
        s.view.value = null;
        s.state.value = null;
        s.error.value = errorText(e).message;
      },
      onSettled: () => {
        s.scanning.value = false;
      },
    });
  }

  /** Follows the data store's source: an NWB file or recipe is scanned, anything else clears the step. */
  function follow(source: DataSource): Promise<void> {
    if (source.kind !== 'file' || !isMappableFile(source.path)) {
      clearMapping(s, applied, scans);
      return Promise.resolve();
    }
    // the inspection of a recipe just applied, or a file already scanned: the choices stay as they are
    const known = source.path === s.appliedPath.value || sameList(s.asked.value, [source.path]);
    if (known && (s.view.value !== null || s.scanning.value)) return Promise.resolve();
    forgetApplied(s, applied);
    return scan([source.path]);
  }

  /** Adds another file of the same recording (one per tetrode) and scans them together. */
  function addFile(path: string): Promise<void> {
    const p = path.trim();
    const files = s.state.value?.files ?? s.asked.value;
    if (p.length === 0 || files.includes(p)) return Promise.resolve();
    return scan([...files, p]);
  }

  function removeFile(index: number): Promise<void> {
    const files = s.state.value?.files ?? [];
    if (files.length < 2 || index < 0 || index >= files.length) return Promise.resolve();
    return scan(files.filter((_, i) => i !== index));
  }

  return { scan, follow, addFile, removeFile };
}

/** Apply (the recipe saved and inspected) and the export as clusterless-npz/1 */
function useMappingExport(s: MappingStoreState, applied: AppliedRecipe, draft: ComputedRef<RecipeDraft | null>) {
  /** Saves the recipe next to the first data file and inspects it. False when nothing was saved. */
  async function apply(): Promise<boolean> {
    const recipe = draft.value?.recipe;
    if (!recipe || !s.state.value) {
      s.error.value = draft.value?.problems.join(' ') || 'Open an NWB file first.';
      return false;
    }
    s.saving.value = true;
    s.error.value = null;
    try {
      const { recipePath } = await useApi().saveRecipe(recipe, s.state.value.files[0]!);
      s.appliedPath.value = recipePath;
      applied.json = JSON.stringify(recipe);
      // the scan's complaints about the automatic mapping are answered by the recipe just saved
      const view = s.view.value;
      if (view) {
        s.view.value = { ...view, recipe, recipeOrigin: 'saved', savedRecipePath: recipePath, findings: view.findings.filter((f) => f.severity !== 'error') };
      }
      await useDataStore().selectFile(recipePath);
      return true;
    } catch (e) {
      s.error.value = errorText(e).message;
      return false;
    } finally {
      s.saving.value = false;
    }
  }

  /** Writes to `out` (null: next to the data file); a file found there is replaced only with `overwrite`. */
  async function exportTo(out: string | null, overwrite: boolean): Promise<NpzExport | null> {
    const unchanged = s.appliedPath.value !== null && draft.value?.recipe != null && JSON.stringify(draft.value.recipe) === applied.json;
    if (!unchanged && !(await apply())) return null;
    s.exporting.value = true;
    s.error.value = null;
    s.exported.value = null;
    s.replaceQuestion.value = null;
    try {
      s.exported.value = await useApi().exportDataAsNpz({ kind: 'file', path: s.appliedPath.value! }, out, { overwrite });
      return s.exported.value;
    } catch (e) {
      const { code, message } = errorText(e);
      // the one failure that is a question: the person chooses to replace the file or to keep it
      if (code === 'EXISTS' && !overwrite) s.replaceQuestion.value = { message, out };
      else s.error.value = message;
      return null;
    } finally {
      s.exporting.value = false;
    }
  }

  return { apply, exportTo };
}

export const useMappingStore = defineStore('mapping', () => {
  const state = mappingState();
  const applied: AppliedRecipe = { json: null };
  const scans = useLatestRequest();
  const draft = computed(() => (state.state.value && state.view.value ? toRecipe(state.state.value, state.view.value.scans) : null));
  const busy = computed(() => state.scanning.value || state.saving.value || state.exporting.value);
  const canApply = computed(() => !busy.value && draft.value?.recipe != null);
  const { scan, follow, addFile, removeFile } = useMappingScan(state, applied, scans);
  const { apply, exportTo } = useMappingExport(state, applied, draft);

  // an answer given for one output must never replace another: a changed target asks again
  watch([state.exportPath, state.appliedPath], () => {
    state.replaceQuestion.value = null;
  }, { flush: 'sync' });

  const clear = (): void => clearMapping(state, applied, scans);

  /** Sets what the form chose (columns, flags, bins); the position series goes through pickPosition. */
  function choose(choice: MappingChoice): void {
    if (state.state.value) Object.assign(state.state.value, choice);
  }

  /** Picks a position series by key: its columns start over and y is not flipped. */
  function pickPosition(key: string): void {
    if (state.state.value && state.view.value) choosePosition(state.state.value, state.view.value.scans, key);
  }

  /** Writes what is mapped as clusterless-npz/1 (saving the choices first when they changed); asks before replacing a file. */
  function exportNpz(): Promise<NpzExport | null> {
    const out = state.exportPath.value.trim();
    return exportTo(out.length > 0 ? out : null, false);
  }

  /** The answer "replace it": the export asked about, again, allowed to replace the file. */
  function replaceExisting(): Promise<NpzExport | null> {
    const asked = state.replaceQuestion.value;
    return asked ? exportTo(asked.out, true) : Promise.resolve(null);
  }

  /** The answer "keep it": nothing is written; another output path can be chosen. */
  function keepExisting(): void {
    state.replaceQuestion.value = null;
  }

  return {
    ...state, busy, draft, canApply,
    clear, scan, follow, choose, pickPosition, addFile, removeFile, apply, exportNpz, replaceExisting, keepExisting,
  };
});
