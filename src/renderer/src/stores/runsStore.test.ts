import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { runEntry } from '../testing/sampleData';
import { setApiForTests } from './apiAccess';
import { useLikelihoodStore } from './likelihoodStore';
import { useResultsStore } from './resultsStore';
import { useRunsStore } from './runsStore';
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
    expect(api.callsOf('compareRuns')[0]!.args).toEqual(['run-2', 'run-1', 5]);
    expect(runs.comparison?.regressed).toBe(true);
    expect(runs.comparison?.rows[0]?.deltaPct).toBe(30);
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
    expect(api.callsOf('getLikelihood').map((c) => c.args)).toEqual([['run-1', 'reference'], ['run-1', 'compensated']]);
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
