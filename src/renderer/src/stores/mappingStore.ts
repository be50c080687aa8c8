/**
 * The NWB mapping step: scans the opened file(s), keeps the choices the form edits, saves them as a
 * recipe next to the data file and has the data store inspect that recipe, and exports what was
 * mapped as clusterless-npz/1, asking before it replaces a file already there. A .npz file or a
 * preset has no mapping step: the state is cleared.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type { DataSource } from '../../../shared/config';
import type { NpzExport, NwbScanView } from '../../../shared/nwb';
import { useLatestRequest } from '../composables/useLatestRequest';
import { errorText } from '../lib/errorText';
import { choosePosition, initialMapping, isMappableFile, toRecipe, type MappingChoice, type MappingState } from '../mapping';
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

export const useMappingStore = defineStore('mapping', () => {
  const view = shallowRef<NwbScanView | null>(null);
  /** what the form edits (deeply reactive: it is small) */
  const state = ref<MappingState | null>(null);
  /** the paths the current scan was asked for, as given */
  const asked = ref<string[]>([]);
  const scanning = ref(false);
  const saving = ref(false);
  const exporting = ref(false);
  const error = ref<string | null>(null);
  /** the recipe file last saved by Apply, and the recipe it holds */
  const appliedPath = ref<string | null>(null);
  let appliedJson: string | null = null;
  const exportPath = ref('');
  const exported = shallowRef<NpzExport | null>(null);
  /** set while the person decides whether the export may replace the file it found */
  const replaceQuestion = shallowRef<ReplaceQuestion | null>(null);
  const scans = useLatestRequest();

  const draft = computed(() => (state.value && view.value ? toRecipe(state.value, view.value.scans) : null));
  const busy = computed(() => scanning.value || saving.value || exporting.value);
  const canApply = computed(() => !busy.value && draft.value?.recipe != null);

  function clear(): void {
    scans.invalidate();
    view.value = null;
    state.value = null;
    asked.value = [];
    error.value = null;
    exported.value = null;
    replaceQuestion.value = null;
    scanning.value = false;
    appliedPath.value = null;
    appliedJson = null;
  }

  // an answer given for one output must never replace another: a changed target asks again
  watch([exportPath, appliedPath], () => {
    replaceQuestion.value = null;
  }, { flush: 'sync' });

  function scan(paths: string[]): Promise<void> {
    const ticket = scans.next();
    asked.value = paths;
    scanning.value = true;
    error.value = null;
    exported.value = null;
    replaceQuestion.value = null;
    return ticket.settle(() => useApi().scanData(paths), {
      onAnswer: (result) => {
        view.value = result;
        state.value = initialMapping(result);
      },
      onError: (e) => {
        view.value = null;
        state.value = null;
        error.value = errorText(e).message;
      },
      onSettled: () => {
        scanning.value = false;
      },
    });
  }

  /** Follows the data store's source: an NWB file or recipe is scanned, anything else clears the step. */
  function follow(source: DataSource): Promise<void> {
    if (source.kind !== 'file' || !isMappableFile(source.path)) {
      clear();
      return Promise.resolve();
    }
    // the inspection of a recipe just applied, or a file already scanned: the choices stay as they are
    const known = source.path === appliedPath.value || sameList(asked.value, [source.path]);
    if (known && (view.value !== null || scanning.value)) return Promise.resolve();
    appliedPath.value = null;
    appliedJson = null;
    return scan([source.path]);
  }

  /** Sets what the form chose (columns, flags, bins); the position series goes through pickPosition. */
  function choose(choice: MappingChoice): void {
    if (state.value) Object.assign(state.value, choice);
  }

  /** Picks a position series by key: its columns start over and y is not flipped. */
  function pickPosition(key: string): void {
    if (state.value && view.value) choosePosition(state.value, view.value.scans, key);
  }

  /** Adds another file of the same recording (one per tetrode) and scans them together. */
  function addFile(path: string): Promise<void> {
    const p = path.trim();
    const files = state.value?.files ?? asked.value;
    if (p.length === 0 || files.includes(p)) return Promise.resolve();
    return scan([...files, p]);
  }

  function removeFile(index: number): Promise<void> {
    const files = state.value?.files ?? [];
    if (files.length < 2 || index < 0 || index >= files.length) return Promise.resolve();
    return scan(files.filter((_, i) => i !== index));
  }

  /** Saves the recipe next to the first data file and inspects it. False when nothing was saved. */
  async function apply(): Promise<boolean> {
    const recipe = draft.value?.recipe;
    if (!recipe || !state.value) {
      error.value = draft.value?.problems.join(' ') || 'Open an NWB file first.';
      return false;
    }
    saving.value = true;
    error.value = null;
    try {
      const { recipePath } = await useApi().saveRecipe(recipe, state.value.files[0]!);
      appliedPath.value = recipePath;
      appliedJson = JSON.stringify(recipe);
      // the scan's complaints about the automatic mapping are answered by the recipe just saved
      if (view.value) {
        view.value = { ...view.value, recipe, recipeOrigin: 'saved', savedRecipePath: recipePath, findings: view.value.findings.filter((f) => f.severity !== 'error') };
      }
      await useDataStore().selectFile(recipePath);
      return true;
    } catch (e) {
      error.value = errorText(e).message;
      return false;
    } finally {
      saving.value = false;
    }
  }

  /** Writes to `out` (null: next to the data file); a file found there is replaced only with `overwrite`. */
  async function exportTo(out: string | null, overwrite: boolean): Promise<NpzExport | null> {
    const unchanged = appliedPath.value !== null && draft.value?.recipe != null && JSON.stringify(draft.value.recipe) === appliedJson;
    if (!unchanged && !(await apply())) return null;
    exporting.value = true;
    error.value = null;
    exported.value = null;
    replaceQuestion.value = null;
    try {
      exported.value = await useApi().exportDataAsNpz({ kind: 'file', path: appliedPath.value! }, out, { overwrite });
      return exported.value;
    } catch (e) {
      const { code, message } = errorText(e);
      // the one failure that is a question: the person chooses to replace the file or to keep it
      if (code === 'EXISTS' && !overwrite) replaceQuestion.value = { message, out };
      else error.value = message;
      return null;
    } finally {
      exporting.value = false;
    }
  }

  /** Writes what is mapped as clusterless-npz/1 (saving the choices first when they changed); asks before replacing a file. */
  function exportNpz(): Promise<NpzExport | null> {
    const out = exportPath.value.trim();
    return exportTo(out.length > 0 ? out : null, false);
  }

  /** The answer "replace it": the export asked about, again, allowed to replace the file. */
  function replaceExisting(): Promise<NpzExport | null> {
    const asked = replaceQuestion.value;
    return asked ? exportTo(asked.out, true) : Promise.resolve(null);
  }

  /** The answer "keep it": nothing is written; another output path can be chosen. */
  function keepExisting(): void {
    replaceQuestion.value = null;
  }

  return {
    view, state, asked, scanning, saving, exporting, busy, error, appliedPath, exportPath, exported, replaceQuestion, draft, canApply,
    clear, scan, follow, choose, pickPosition, addFile, removeFile, apply, exportNpz, replaceExisting, keepExisting,
  };
});
