import { effectScope, nextTick } from 'vue';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeApiEachTest, type FakeApi } from '../testing/fakeApi';
import { useLiveRunStore, useNavStore } from '../stores';
import { nameStartedRun, replaceParams, useRunRoute } from './useRunRoute';

/** lets the watchers run and the awaited calls settle */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await nextTick();
    await Promise.resolve();
  }
}

describe('useRunRoute', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a));
  let scope = effectScope();
  beforeEach(() => {
    scope = effectScope();
  });
  afterEach(() => {
    scope.stop();
    vi.unstubAllGlobals();
  });

  function mount(view: 'results' | 'live', shown: { id: string | null }, fallback?: () => Promise<string | null>) {
    const opened: string[] = [];
    scope.run(() =>
      useRunRoute(view, {
        shown: () => shown.id,
        open: (id) => {
          opened.push(id);
          shown.id = id;
        },
        fallback,
      }),
    );
    return opened;
  }

  it('opens the run the address names, and the next one back or forward names', async () => {
    const nav = useNavStore();
    nav.go('results', { run: 'a' });
    const opened = mount('results', { id: null });
    nav.go('results', { run: 'b' });
    await settle();
    nav.go('results', { run: 'a' });
    await settle();
    expect(opened).toEqual(['a', 'b', 'a']);
    expect(api.calls).toEqual([]);
  });

  it('reached without a run, names the one shown; with none shown, the fallback\'s', async () => {
    const nav = useNavStore();
    nav.go('results');
    const shown = { id: 'x' as string | null };
    mount('results', shown);
    await settle();
    expect(nav.params).toEqual({ run: 'x' });

    nav.go('live');
    const opened = mount('live', { id: null }, async () => 'latest');
    await settle();
    expect(nav.params).toEqual({ run: 'latest' });
    expect(opened).toEqual(['latest']);
  });

  it('leaves the route alone while another view is current', async () => {
    const nav = useNavStore();
    nav.go('results', { run: 'a' });
    const opened = mount('results', { id: 'a' });
    nav.go('decode');
    await settle();
    expect(nav.view).toBe('decode');
    expect(nav.params).toEqual({});
    expect(opened).toEqual([]);
  });

  it('does not name the fallback\'s run when the user moved on while it was asked for', async () => {
    const nav = useNavStore();
    nav.go('results');
    const opened = mount('results', { id: null }, async () => {
      nav.go('runs');
      return 'latest';
    });
    await settle();
    expect(nav.view).toBe('runs');
    expect(nav.params).toEqual({});
    expect(opened).toEqual([]);
  });

  it('rewrites the current history entry instead of adding one', () => {
    const replaceState = vi.fn();
    vi.stubGlobal('window', { history: { state: { n: 1 }, replaceState } });
    const nav = useNavStore();
    nav.go('runs', { compare: 'a,b' });
    replaceParams({ compare: undefined, run: 'r' });
    expect(replaceState).toHaveBeenCalledWith({ n: 1 }, '', '#/runs?run=r');
    expect(nav.params).toEqual({ run: 'r' });
  });

  it('names a started run in the live view only while the address names no other', async () => {
    const nav = useNavStore();
    const live = useLiveRunStore();
    nav.go('live');
    const id = await live.start({
      data: { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 },
      backend: 'wasm', strategies: ['reference'], repeats: 1, warmup: 0, local: false, saveLikelihood: false, trace: true,
    });
    nameStartedRun(id);
    expect(nav.params).toEqual({ run: 'run-1' });
    nav.go('data');
    nameStartedRun(id);
    expect(nav.view).toBe('data');
    expect(nav.params).toEqual({});
    nameStartedRun(null);
    expect(nav.params).toEqual({});
    live.reset();
  });
});
