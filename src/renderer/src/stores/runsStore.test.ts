import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { runEntry } from '../testing/sampleData';
import { setApiForTests } from './apiAccess';
import { useLikelihoodStore } from './likelihoodStore';
import { useResultsStore } from './resultsStore';
import { compareParamOf, parseCompareParam, useRunsStore } from './runsStore';
import { useExportStore } from './exportStore';

describe('useRunsStore', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a));

  it('lists runs newest first', async () => {
    api.listRuns = async () => [runEntry('old', { createdAt: '2026-01-01T00:00:00Z' }), runEntry('new', { createdAt: '2026-02-01T00:00:00Z' })];
    const runs = useRunsStore();
    await runs.refresh();
    expect(runs.runs.map((r) => r.id)).toEqual(['new', 'old']);
  });

  it('offers no refused input to the pickers or to compare, and still lists it', async () => {
    const refusedError = { name: 'AppError' as const, code: 'E026' as const, message: 'bad.npz: spike times are NaN' };
    const brokeWhileWorking = { name: 'AppError' as const, code: 'RUN_FAILED' as const, message: 'engine stopped' };
    api.listRuns = async () => [
      runEntry('refused', { status: 'failed', headline: [], error: refusedError, createdAt: '2026-03-01T00:00:00Z' }),
      runEntry('broke', { status: 'failed', headline: [], error: brokeWhileWorking, createdAt: '2026-02-01T00:00:00Z' }),
      runEntry('done', { createdAt: '2026-01-01T00:00:00Z' }),
    ];
    const runs = useRunsStore();
    await runs.refresh();
    expect(runs.runs.map((r) => r.id)).toEqual(['refused', 'broke', 'done']);
    expect(runs.pickable.map((r) => r.id)).toEqual(['broke', 'done']);
    runs.toggleSelected('refused');
    runs.toggleSelected('done');
    expect(runs.selected).toEqual(['done']);
  });

  it('keeps at most two ticked runs and compares them with the threshold', async () => {
    const runs = useRunsStore();
    await runs.refresh();
    runs.toggleSelected('run-1');
    runs.toggleSelected('run-2');
    runs.toggleSelected('run-3');
    expect(runs.selected).toEqual(['run-2', 'run-3']);
    runs.toggleSelected('run-3');
    runs.toggleSelected('run-1');
    runs.thresholdPct = 5;
    await runs.compare();
    // the sample runs share one creation time: the pair is then in id order, as run ids sort by time
    expect(api.callsOf('compareRuns')[0]!.args).toEqual(['run-1', 'run-2', 5]);
    expect(runs.comparison?.regressed).toBe(true);
    expect(runs.comparison?.rows[0]?.deltaPct).toBe(30);
  });

  it('compares the older ticked run as A (the baseline) and the newer as B, whichever was ticked first, as the CLI does', async () => {
    api.listRuns = async () => [runEntry('old', { createdAt: '2026-01-01T00:00:00Z' }), runEntry('new', { createdAt: '2026-02-01T00:00:00Z' })];
    const runs = useRunsStore();
    await runs.refresh();
    // the list shows the newest first, so a top-down tick picks the newer run first
    runs.toggleSelected('new');
    runs.toggleSelected('old');
    expect(runs.baselineFirst).toEqual(['old', 'new']);
    await runs.compare();
    expect(api.callsOf('compareRuns')[0]!.args.slice(0, 2)).toEqual(['old', 'new']);
  });

  it('asks for two runs before comparing, and shows the service error', async () => {
    const runs = useRunsStore();
    await runs.compare();
    expect(runs.compareError).toMatch(/two runs/);
    api.compareRuns = async () => {
      throw Object.assign(new Error('run run-2 has no report to compare (it is failed).'), { code: 'NOT_FOUND' });
    };
    await runs.compare('run-1', 'run-2');
    expect(runs.compareError).toMatch(/no report/);
    expect(runs.comparison).toBeNull();
  });

  it('opens the comparison an address names, ticks its runs, and does not ask again for the one shown', async () => {
    const runs = useRunsStore();
    await runs.openComparison('run-1,run-2');
    expect(api.callsOf('compareRuns').map((c) => c.args.slice(0, 2))).toEqual([['run-1', 'run-2']]);
    expect(runs.selected).toEqual(['run-1', 'run-2']);
    expect(runs.comparedParam).toBe('run-1,run-2');
    await runs.openComparison('run-1,run-2');
    expect(api.callsOf('compareRuns')).toHaveLength(1);
    runs.clearComparison();
    expect(runs.comparison).toBeNull();
    expect(runs.comparedParam).toBeNull();
    expect(runs.selected).toEqual(['run-1', 'run-2']);
  });

  it('says what is wrong with a malformed compare address, and which run of a pair is gone', async () => {
    const runs = useRunsStore();
    await runs.openComparison('only-one');
    expect(runs.compareError).toMatch(/'only-one': expected two run ids separated by a comma/);
    expect(api.callsOf('compareRuns')).toHaveLength(0);
    api.compareRuns = async (a, b) => {
      throw Object.assign(new Error(`run ${b} not found in /runs: list runs to see the ids there.`), { code: 'NOT_FOUND', location: { key: b } });
    };
    await runs.openComparison('20250101-120000-aaaaaa,20250101-120000-bbbbbb');
    expect(runs.compareError).toBe('run 20250101-120000-bbbbbb was not found: it may have been deleted. Pick another run from Runs.');
    expect(runs.comparison).toBeNull();
  });

  it('a late comparison answer does not replace a newer one', async () => {
    const runs = useRunsStore();
    const real = api.compareRuns;
    let releaseOld: () => void = () => undefined;
    api.compareRuns = (a, b, t) => new Promise((resolve) => (releaseOld = () => void real(a, b, t).then(resolve)));
    const old = runs.compare('old-a', 'old-b');
    api.compareRuns = real;
    await runs.compare('new-a', 'new-b');
    releaseOld();
    await old;
    expect(runs.comparedParam).toBe('new-a,new-b');
    expect(runs.comparing).toBe(false);
  });

  it('reads and writes the compare parameter', () => {
    expect(parseCompareParam(compareParamOf('a', 'b'))).toEqual(['a', 'b']);
    expect(parseCompareParam(' a , b ')).toEqual(['a', 'b']);
    expect(parseCompareParam('a,')).toBeNull();
    expect(parseCompareParam('a,b,c')).toBeNull();
  });

  it('delete removes the run from the list, the selection and a comparison that used it', async () => {
    const runs = useRunsStore();
    await runs.refresh();
    runs.toggleSelected('run-1');
    runs.toggleSelected('run-2');
    await runs.compare();
    expect(await runs.remove('run-2')).toBe(true);
    expect(api.callsOf('deleteRun')[0]!.args).toEqual(['run-2']);
    expect(runs.runs.map((r) => r.id)).toEqual(['run-1']);
    expect(runs.selected).toEqual(['run-1']);
    expect(runs.comparison).toBeNull();
  });
});

describe('useResultsStore and useLikelihoodStore', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a));

  it('getRun gives the report', async () => {
    const results = useResultsStore();
    await results.load('run-9');
    expect(api.callsOf('getRun')[0]!.args).toEqual(['run-9']);
    expect(results.report?.runId).toBe('run-9');
    expect(results.report?.strategies.map((s) => s.strategy)).toEqual(['reference', 'compensated']);
  });

  it('a run that does not exist reads as one sentence and is marked missing; a broken connection is not', async () => {
    const results = useResultsStore();
    api.getRun = async (id) => {
      throw Object.assign(new Error(`run ${id} not found in /runs: list runs to see the ids there.`), { code: 'NOT_FOUND', location: { key: id } });
    };
    await results.load('20250101-120000-abcdef');
    expect(results.missing).toBe(true);
    expect(results.error).toBe('run 20250101-120000-abcdef was not found: it may have been deleted. Pick another run from Runs.');
    expect(results.runId).toBe('20250101-120000-abcdef');
    api.getRun = async () => {
      throw Object.assign(new Error('run x: expected a run id like 20250101-120000-a1b2c3, got "nope"'), { code: 'BAD_ARGUMENT', location: { key: 'runId' } });
    };
    await results.load('nope');
    expect(results.missing).toBe(true);
    expect(results.error).toMatch(/^run nope was not found/);
    api.getRun = async () => {
      throw Object.assign(new Error('the connection to the profiler server closed'), { code: 'IO' });
    };
    await results.load('20250101-120000-abcdef');
    expect(results.missing).toBe(false);
    expect(results.error).toBe('the connection to the profiler server closed');
    results.clear();
    expect(results.error).toBeNull();
  });

  it('a late answer for an older run does not replace the newer one', async () => {
    const results = useResultsStore();
    const real = api.getRun;
    let releaseOld: () => void = () => undefined;
    api.getRun = (id) => new Promise((resolve) => (releaseOld = () => void real(id).then(resolve)));
    const old = results.load('old');
    api.getRun = real;
    await results.load('new');
    releaseOld();
    await old;
    expect(results.report?.runId).toBe('new');
  });

  it('loads the likelihood per strategy and switches strategy on the same run', async () => {
    const lk = useLikelihoodStore();
    await lk.load('run-1', 'reference');
    await lk.selectStrategy('compensated');
    expect(api.callsOf('getLikelihood').map((c) => c.args.slice(0, 2))).toEqual([['run-1', 'reference'], ['run-1', 'compensated']]);
    expect(lk.view?.strategy).toBe('compensated');
    expect(lk.strategies).toEqual(['reference', 'compensated']);
  });

  it('says why when a run saved no likelihood', async () => {
    api.getLikelihood = async () => {
      throw Object.assign(new Error('run run-1 saved no likelihood for streaming: start it with "save likelihood"'), { code: 'NOT_FOUND' });
    };
    const lk = useLikelihoodStore();
    await lk.load('run-1', 'streaming');
    expect(lk.error).toMatch(/save likelihood/);
    expect(lk.view).toBeNull();
  });
});

describe('useExportStore', () => {
  beforeEach(() => setActivePinia(createPinia()));
  afterEach(() => setApiForTests(null));

  it('asks the service for the format and keeps the result', async () => {
    const api = new FakeApi();
    setApiForTests(api);
    const ex = useExportStore();
    const result = await ex.exportRun('run-1', 'trace');
    expect(api.callsOf('exportRun')[0]!.args).toEqual(['run-1', 'trace']);
    expect(result?.base64).toBe(btoa('hello'));
    expect(ex.last?.fileName).toBe('run-1.trace');
    expect(ex.busy).toBeNull();
  });

  it('a cancelled save dialog is not an error; a failure is', async () => {
    const api = new FakeApi();
    setApiForTests(api);
    const ex = useExportStore();
    api.exportRun = async () => {
      throw Object.assign(new Error('cancelled'), { code: 'CANCELLED' });
    };
    expect(await ex.exportRun('run-1', 'md')).toBeNull();
    expect(ex.error).toBeNull();
    api.exportRun = async () => {
      throw Object.assign(new Error('run run-1 has no trace'), { code: 'NOT_FOUND' });
    };
    await ex.exportRun('run-1', 'trace');
    expect(ex.error).toBe('run run-1 has no trace');
  });
});
