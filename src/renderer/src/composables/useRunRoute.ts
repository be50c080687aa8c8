/**
 * A view that shows one run keeps that run in the address (`#/results?run=<id>`, `#/live?run=<id>`):
 * it opens the run the address names, follows it through back and forward, and when it is reached
 * without one (the sidebar's plain link) names the run it shows. Naming rewrites the current
 * history entry instead of adding one, so Back never lands on an address that at once points
 * forward again.
 */
import { watch } from 'vue';
import { hashOf, useLiveRunStore, useNavStore, useResultsStore, useRunsStore, type ViewId } from '../stores';

/** changes the current route's parameters in place: the history entry is rewritten, not added */
export function replaceParams(changes: Readonly<Record<string, string | undefined>>): void {
  const nav = useNavStore();
  const next: Record<string, string> = { ...nav.params };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === '') delete next[k];
    else next[k] = v;
  }
  // the shell adds a history entry when the hash differs from the route; made equal first, it adds none
  if (typeof window !== 'undefined') window.history.replaceState(window.history.state, '', hashOf(nav.view, next));
  nav.setParams(changes);
}

/**
 * After a start from Run setup or the example, which went to the live view at once: the address
 * names the new run there, unless the user has moved on (or another run took its place) meanwhile.
 */
export function nameStartedRun(id: string | null): void {
  const nav = useNavStore();
  if (id === null || nav.view !== 'live' || useLiveRunStore().runId !== id || nav.params.run !== undefined) return;
  replaceParams({ run: id });
}

export interface RunRouteOptions {
  /** the run the view's store shows now */
  shown: () => string | null;
  /** shows the run the address names */
  open: (id: string) => unknown;
  /** the run to show when neither the address nor the store has one (Results: the latest finished run) */
  fallback?: () => Promise<string | null>;
}

/** call from a view's setup: the watch lives as long as the view */
export function useRunRoute(view: ViewId, options: RunRouteOptions): void {
  const nav = useNavStore();
  const here = (): boolean => nav.view === view;
  watch(
    // null while another view's route is current (this view is on its way out)
    () => (here() ? (nav.params.run ?? '') : null),
    async (id) => {
      if (id === null) return;
      if (id !== '') {
        if (id !== options.shown()) await options.open(id);
        return;
      }
      const current = options.shown() ?? (await options.fallback?.()) ?? null;
      // the user may have moved on while the fallback was asked for
      if (current !== null && here() && nav.params.run === undefined) replaceParams({ run: current });
    },
    { immediate: true },
  );
}

/** A view of the results store's run (Results, Export): the address's run, else the latest finished one. */
export function useResultsRunRoute(view: ViewId): void {
  const results = useResultsStore();
  const runs = useRunsStore();
  useRunRoute(view, {
    shown: () => results.runId,
    open: (id) => results.load(id),
    fallback: async () => {
      await runs.refresh();
      return runs.runs.find((r) => r.status === 'completed')?.id ?? null;
    },
  });
}
