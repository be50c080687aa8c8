/**
 * Which view is shown, and what it shows: the address bar's hash mirrors both (App.vue does the
 * DOM part), so a link names a view and a run (`#/results?run=<id>`), a reload lands on it, and
 * back/forward step through what was opened. Views read `params` and set them as they change runs.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';

export const VIEWS = [
  { id: 'data', label: 'Data' },
  { id: 'setup', label: 'Run setup' },
  { id: 'live', label: 'Live run' },
  { id: 'results', label: 'Results' },
  { id: 'decode', label: 'Decode' },
  { id: 'runs', label: 'Runs' },
  { id: 'sweeps', label: 'Sweeps' },
  { id: 'export', label: 'Export' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

/** a view's query: run, strategy, compare… (string values only, as the address carries them) */
export type RouteParams = Readonly<Record<string, string>>;

export interface Route {
  view: ViewId;
  params: RouteParams;
}

/**
 * Routes by the names they had before they took their views' names: a link or bookmark from then
 * (`#/likelihood?run=<id>`, from when the Decode view showed only the likelihood) opens the view.
 */
const RENAMED_VIEWS: Readonly<Record<string, ViewId>> = { likelihood: 'decode' };

/** parameters a link may carry; anything else in an address is dropped */
export const ROUTE_PARAMS = ['run', 'strategy', 'compare', 'sweep', 'show'] as const;
const MAX_PARAM_CHARS = 400;

export function routeFromHash(hash: string): Route | null {
  const body = hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = body.split('?', 2);
  const named = path.split('/')[0] ?? '';
  const id = RENAMED_VIEWS[named] ?? named;
  if (!VIEWS.some((v) => v.id === id)) return null;
  const params: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(query)) {
    if ((ROUTE_PARAMS as readonly string[]).includes(k) && v.length > 0 && v.length <= MAX_PARAM_CHARS) params[k] = v;
  }
  return { view: id as ViewId, params };
}

export function viewFromHash(hash: string): ViewId | null {
  return routeFromHash(hash)?.view ?? null;
}

/** `#/view` or `#/view?run=…`, parameters in a fixed order so one route has one address */
export function hashOf(view: ViewId, params: RouteParams = {}): string {
  const q = new URLSearchParams();
  for (const k of ROUTE_PARAMS) if (params[k]) q.set(k, params[k]);
  const query = q.toString();
  return query ? `#/${view}?${query}` : `#/${view}`;
}

export function sameRoute(a: Route, b: Route): boolean {
  return hashOf(a.view, a.params) === hashOf(b.view, b.params);
}

export const useNavStore = defineStore('nav', () => {
  const view = ref<ViewId>('data');
  const params = shallowRef<RouteParams>({});

  /** shows a view; its parameters are the ones given (none: a bare view) */
  function go(to: ViewId, with_: RouteParams = {}): void {
    view.value = to;
    params.value = { ...with_ };
  }

  /** changes the current view's parameters, keeping the others; undefined or '' removes one */
  function setParams(changes: Readonly<Record<string, string | undefined>>): void {
    const next: Record<string, string> = { ...params.value };
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === '') delete next[k];
      else next[k] = v;
    }
    params.value = next;
  }

  return { view, params, go, setParams };
});
