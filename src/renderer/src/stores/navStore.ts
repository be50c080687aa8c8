/**
 * Which view is shown. The address bar's hash mirrors it (App.vue does the DOM part), so a reload
 * or a test can land on a view directly: #/results, #/live.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';

export const VIEWS = [
  { id: 'data', label: 'Data' },
  { id: 'setup', label: 'Run setup' },
  { id: 'live', label: 'Live run' },
  { id: 'results', label: 'Results' },
  { id: 'likelihood', label: 'Likelihood' },
  { id: 'runs', label: 'Runs' },
  { id: 'export', label: 'Export' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

export function viewFromHash(hash: string): ViewId | null {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return VIEWS.some((v) => v.id === id) ? (id as ViewId) : null;
}

export const hashOf = (view: ViewId): string => `#/${view}`;

export const useNavStore = defineStore('nav', () => {
  const view = ref<ViewId>('data');

  function go(to: ViewId): void {
    view.value = to;
  }

  return { view, go };
});
