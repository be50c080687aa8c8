import { describe, expect, it } from 'vitest';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { runEntry } from '../testing/sampleData';
import { missingPages, RUN_PAGE_ROWS, withoutRun } from './runPages';
import { useRunsStore } from './runsStore';

/** `n` runs a minute apart, listed newest first as run-0, run-1, … */
function history(n: number) {
  return Array.from({ length: n }, (_, i) => runEntry(`run-${i}`, { createdAt: new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString() }));
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('missingPages and withoutRun', () => {
  it('names each page the wanted rows lack once, and none past the end', () => {
    const rows = new Map([[0, runEntry('a')], [RUN_PAGE_ROWS + 5, runEntry('b')]]);
    expect(missingPages(rows, 0, 3 * RUN_PAGE_ROWS, 10 * RUN_PAGE_ROWS)).toEqual([0, RUN_PAGE_ROWS, 2 * RUN_PAGE_ROWS]);
    expect(missingPages(rows, 1, 2, 1)).toEqual([]);
    expect(missingPages(new Map(), 2 * RUN_PAGE_ROWS - 1, 2 * RUN_PAGE_ROWS + 1, 5 * RUN_PAGE_ROWS)).toEqual([RUN_PAGE_ROWS, 2 * RUN_PAGE_ROWS]);
  });

  it('moves the rows after a deleted run up one place, and says when the run is not loaded', () => {
    const rows = new Map([[0, runEntry('a')], [1, runEntry('b')], [7, runEntry('c')]]);
    expect([...withoutRun(rows, 'b')!]).toEqual([[0, rows.get(0)], [6, rows.get(7)]]);
    expect(withoutRun(rows, 'nope')).toBeNull();
  });
});

describe('the runs store, a page at a time', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a));

  it('loads the newest page and the total, then only the pages a view shows', async () => {
    const all = history(5 * RUN_PAGE_ROWS + 3);
    api.listRuns = async () => all;
    const runs = useRunsStore();
    await runs.refresh();
    expect(runs.total).toBe(all.length);
    expect(runs.runs).toHaveLength(RUN_PAGE_ROWS);
    expect(runs.rowAt(all.length - 1)).toBeUndefined();
    runs.show(all.length - 3, all.length);
    await settle();
    expect(runs.rowAt(all.length - 1)?.id).toBe(`run-${all.length - 1}`);
    expect(api.callsOf('listRunPage').map((c) => (c.args[0] as { offset: number }).offset)).toEqual([0, 5 * RUN_PAGE_ROWS]);
  });

  it('asks for what the view wants by the time a page answer is back, not for every place it passed', async () => {
    api.listRuns = async () => history(20 * RUN_PAGE_ROWS);
    const runs = useRunsStore();
    await runs.refresh();
    for (let page = 1; page < 20; page++) runs.show(page * RUN_PAGE_ROWS, page * RUN_PAGE_ROWS + 20);
    await settle();
    await settle();
    expect(api.callsOf('listRunPage').map((c) => (c.args[0] as { offset: number }).offset)).toEqual([0, RUN_PAGE_ROWS, 19 * RUN_PAGE_ROWS]);
  });

  it('reads a stand-in without pages from its whole list', async () => {
    const stand = api as Partial<FakeApi>;
    delete stand.listRunPage;
    api.listRuns = async () => history(3).reverse();
    const runs = useRunsStore();
    await runs.refresh();
    expect(runs.runs.map((r) => r.id)).toEqual(['run-0', 'run-1', 'run-2']);
  });
});
