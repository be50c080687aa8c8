/**
 * The run history a page at a time, for the runs store: the rows loaded so far by their place in
 * the list (newest first, as the service sorts it), how many runs there are in all, and loading
 * the pages a view is about to show. A runs folder of a hundred thousand runs is never fetched
 * whole: the Runs view asks for the rows it can show, the run picker and Results read the newest
 * page. One page request is in flight at a time, and it asks for what the view wants by the time
 * it goes, so dragging the scrollbar across the list does not queue a request per row passed.
 * A run that ended early comes with how far it got (ListedRun), as the service read it.
 */
import { computed, markRaw, ref, shallowRef } from 'vue';
import { compareEntries, type ListedRun, type RunPage } from '../../../shared/api';
import { useApi } from './apiAccess';

/** rows one page request asks for */
export const RUN_PAGE_ROWS = 200;

export type RowMap = ReadonlyMap<number, ListedRun>;

/** The offsets of the pages holding rows [start, end) that `rows` lacks, below `total`. */
export function missingPages(rows: RowMap, start: number, end: number, total: number): number[] {
  const pages: number[] = [];
  for (let i = Math.max(0, start); i < Math.min(end, total); i++) {
    if (rows.has(i)) continue;
    const page = i - (i % RUN_PAGE_ROWS);
    pages.push(page);
    i = page + RUN_PAGE_ROWS - 1;
  }
  return pages;
}

/** `rows` without the row of run `id`, the rows after it one place up; null when that run is not loaded. */
export function withoutRun(rows: RowMap, id: string): Map<number, ListedRun> | null {
  let at = -1;
  for (const [i, r] of rows) if (r.id === id) at = i;
  if (at < 0) return null;
  const next = new Map<number, ListedRun>();
  for (const [i, r] of rows) if (i !== at) next.set(i > at ? i - 1 : i, r);
  return next;
}

/** A page from the service; a stand-in of the API without pages answers from its whole list. */
async function fetchPage(offset: number): Promise<RunPage> {
  const api = useApi();
  if (api.listRunPage) return api.listRunPage({ offset, limit: RUN_PAGE_ROWS });
  const all = [...(await api.listRuns())].sort(compareEntries);
  return { runs: all.slice(offset, offset + RUN_PAGE_ROWS), offset, total: all.length };
}

function merged(rows: RowMap, pages: readonly RunPage[], total: number): Map<number, ListedRun> {
  const next = new Map<number, ListedRun>();
  for (const [i, r] of rows) if (i < total) next.set(i, r);
  for (const p of pages) p.runs.forEach((r, k) => next.set(p.offset + k, markRaw(r)));
  return next;
}

export function useRunPages(onError: (e: unknown) => void) {
  const rows = shallowRef<RowMap>(new Map());
  const total = ref(0);
  /** the rows the view last asked for: a reload fetches them again with the newest page */
  let wanted: [number, number] = [0, RUN_PAGE_ROWS];
  /** bumped by a reload: a page asked for before it belongs to a list that is gone */
  let generation = 0;
  let loading: Promise<void> | null = null;

  /** Replaces the rows with the newest page and the pages the view shows, fetched now. */
  async function reload(): Promise<void> {
    const mine = ++generation;
    const offsets = [...new Set([0, ...missingPages(new Map(), wanted[0], wanted[1], Number.MAX_SAFE_INTEGER)])];
    const pages = await Promise.all(offsets.map(fetchPage));
    if (mine !== generation) return;
    const count = pages[0]!.total;
    rows.value = merged(new Map(), pages, count);
    total.value = count;
  }

  async function loadWanted(): Promise<void> {
    // each page once per round, so a list that shrank meanwhile cannot keep it asking
    const asked = new Set<number>();
    for (;;) {
      const mine = generation;
      const offset = missingPages(rows.value, wanted[0], wanted[1], total.value).find((o) => !asked.has(o));
      if (offset === undefined) return;
      asked.add(offset);
      const page = await fetchPage(offset);
      if (mine !== generation) continue;
      rows.value = merged(rows.value, [page], page.total);
      total.value = page.total;
    }
  }

  /** the view shows rows [start, end): loads those not loaded yet */
  function show(start: number, end: number): void {
    wanted = [start, end];
    loading ??= loadWanted().catch(onError).finally(() => {
      loading = null;
    });
  }

  /** Takes a deleted run off the list; false when it was not loaded (the caller reloads). */
  function drop(id: string): boolean {
    const next = withoutRun(rows.value, id);
    if (next === null) return false;
    rows.value = next;
    total.value = Math.max(0, total.value - 1);
    return true;
  }

  /** the newest page of runs: what the run picker offers and Results opens first */
  const newest = computed((): ListedRun[] => {
    const list: ListedRun[] = [];
    for (let i = 0; i < Math.min(RUN_PAGE_ROWS, total.value); i++) {
      const r = rows.value.get(i);
      if (r) list.push(r);
    }
    return markRaw(list);
  });

  /** the run at place `index` of the whole list; undefined until its page is loaded */
  const rowAt = (index: number): ListedRun | undefined => rows.value.get(index);
  /** a loaded run by id */
  function loaded(id: string): ListedRun | undefined {
    for (const r of rows.value.values()) if (r.id === id) return r;
    return undefined;
  }
  /** whether every run is loaded (a small run history always is) */
  const complete = (): boolean => rows.value.size >= total.value;

  return { rows, total, newest, rowAt, loaded, complete, reload, show, drop };
}
