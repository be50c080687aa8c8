import { describe, expect, it } from 'vitest';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { electrodeGroupId, processGroupId } from '../timeline/trackLayout';
import { useLiveRunStore } from './liveRunStore';
import { useTimelineStore, windowAround } from './timelineStore';

describe('useTimelineStore', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a));

  async function attached(): Promise<ReturnType<typeof useLiveRunStore>> {
    const live = useLiveRunStore();
    await live.attach('run-1');
    await live.refreshTimeline();
    useTimelineStore().forRun('run-1');
    return live;
  }

  it('finds the next match over the whole run, selects it and moves the window to it', async () => {
    const live = await attached();
    const tl = useTimelineStore();
    tl.setDefaults(new Set([processGroupId('engine')]));
    tl.setSearchText('DECODE');
    await tl.find('next');
    expect(api.callsOf('findSpan')[0]!.args).toEqual(['run-1', { text: 'DECODE', fromUs: -1, direction: 'next' }]);
    expect(tl.search).toMatchObject({ total: 1, ordinal: 1 });
    expect(live.selectedSpan?.name).toBe('decode');
    // the match's lane, named by the answer shown, has its process opened
    expect(tl.isCollapsed(processGroupId('engine'))).toBe(false);
    expect(live.visibleWindow).toEqual(windowAround(tl.search!.match!, live.totalUs));
  });

  it('starts again from the other end past the last match', async () => {
    await attached();
    const tl = useTimelineStore();
    tl.setSearchText('decode');
    await tl.find('next');
    await tl.find('next');
    const calls = api.callsOf('findSpan').map((c) => c.args[1]);
    // the second step asks from the match (nothing after it), then from the run's start
    expect(calls.slice(1)).toEqual([{ text: 'decode', fromUs: 100, direction: 'next' }, { text: 'decode', fromUs: -1, direction: 'next' }]);
    expect(tl.search?.ordinal).toBe(1);
  });

  it('says no match without moving anything', async () => {
    const live = await attached();
    const tl = useTimelineStore();
    tl.setSearchText('nothing like it');
    await tl.find('next');
    expect(tl.search).toEqual({ total: 0, match: null, ordinal: 0 });
    expect(live.visibleWindow).toBeNull();
  });

  it('opens the groups a found span sits in', () => {
    const tl = useTimelineStore();
    tl.setDefaults(new Set([electrodeGroupId('engine:1')]));
    expect(tl.isCollapsed(electrodeGroupId('engine:1'))).toBe(true);
    tl.reveal({ id: 'engine:1/electrode 4', name: 'engine · main · electrode 4', process: 'engine', thread: 1, electrode: { index: 4 } });
    expect(tl.isCollapsed(electrodeGroupId('engine:1'))).toBe(false);
    expect(tl.isCollapsed(processGroupId('engine'))).toBe(false);
  });

  it('keeps the first default and the person\'s toggles, and forgets both for another run', () => {
    const tl = useTimelineStore();
    tl.forRun('a');
    tl.setDefaults(new Set(['g1']));
    tl.setDefaults(new Set(['g2']));
    expect([tl.isCollapsed('g1'), tl.isCollapsed('g2')]).toEqual([true, false]);
    tl.toggle('g1');
    tl.toggle('g2');
    expect([tl.isCollapsed('g1'), tl.isCollapsed('g2')]).toEqual([false, true]);
    tl.forRun('b');
    expect([tl.isCollapsed('g1'), tl.isCollapsed('g2')]).toEqual([false, false]);
  });

  it('asks the service to summarise an area and keeps the answer with the area', async () => {
    await attached();
    const tl = useTimelineStore();
    await tl.selectArea({ startUs: 10, endUs: 500, lanes: ['engine:1'], y0: 0, y1: 40 });
    expect(api.callsOf('summarizeArea')[0]!.args).toEqual(['run-1', { startUs: 10, endUs: 500, lanes: ['engine:1'] }]);
    expect(tl.summary?.rows[0]?.name).toBe('decode');
    tl.clearArea();
    expect([tl.area, tl.summary]).toEqual([null, null]);
  });

  it('shows a failed summary as an error on the area', async () => {
    await attached();
    api.summarizeArea = async () => {
      throw new Error('service gone');
    };
    const tl = useTimelineStore();
    await tl.selectArea({ startUs: 10, endUs: 500, lanes: ['engine:1'], y0: 0, y1: 40 });
    expect(tl.summaryError).toMatch(/service gone/);
    expect(tl.area).not.toBeNull();
  });

  it('remembers the deepest depth seen per lane across answers', () => {
    const tl = useTimelineStore();
    const view = { startUs: 0, endUs: 1, totalUs: 1, lanes: [], instants: [], totalEvents: 0 };
    expect(tl.noteDepths({ ...view, spans: [{ lane: 'l', name: 'a', cat: '', startUs: 0, durUs: 1, depth: 3, merged: 1 }] })).toBe(true);
    expect(tl.noteDepths({ ...view, spans: [{ lane: 'l', name: 'a', cat: '', startUs: 0, durUs: 1, depth: 1, merged: 1 }] })).toBe(false);
    expect(tl.depths.get('l')).toBe(4);
  });
});
