import { describe, expect, it, vi } from 'vitest';
import type { PosteriorMapRequest } from '../../../shared/posteriorViewMap';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { fieldMap, fieldPeak, fieldView, FIELD_ROWS } from '../testing/samplePosterior2d';
import { MAP_FRAME_MS, usePosteriorMapStore, type MapTarget } from './posteriorMapStore';
import { displayedRowOf, revivedMap, revivedPosterior, rowsPerSecond } from './posteriorRows';

const FIELD: MapTarget = { runId: 'field-1', source: 'acausal', nTime: FIELD_ROWS, rowsPerSecond: 100 };
const asked = (api: FakeApi): PosteriorMapRequest[] => api.callsOf('getPosteriorMap').map((c) => c.args[1] as PosteriorMapRequest);

/** holds every map answer until released, as a slow service would */
function holdMaps(api: FakeApi): { release: () => Promise<void> } {
  const waiting: (() => void)[] = [];
  const answer = api.getPosteriorMap;
  api.getPosteriorMap = async (runId, request) => {
    await new Promise<void>((resolve) => waiting.push(resolve));
    return answer(runId, request);
  };
  return {
    release: async () => {
      for (const go of waiting.splice(0)) go();
      for (let i = 0; i < 20; i++) await Promise.resolve();
    },
  };
}

describe('2-D helpers', () => {
  it('a map from the WebSocket gets its NaN back; a view says its rate and where a row is drawn', () => {
    const wire = JSON.parse(JSON.stringify(fieldMap({ row: 3, trailRows: 2 }))) as never;
    const m = revivedMap(wire);
    expect(m.values[0]).toBeNaN();
    expect(m.trail?.x).toHaveLength(3);
    const v = revivedPosterior(JSON.parse(JSON.stringify(fieldView({ startRow: 100, endRow: 200, maxRows: 25 }))) as never);
    expect(v.grid?.shape).toEqual([8, 6]);
    expect(v.mapPositionY).toHaveLength(25);
    expect(rowsPerSecond(v)).toBeCloseTo(100, 6);
    expect([displayedRowOf(v, 100), displayedRowOf(v, 103), displayedRowOf(v, 104), displayedRowOf(v, 199), displayedRowOf(v, 200), displayedRowOf(v, 99)]).toEqual([0, 0, 1, 24, null, null]);
  });
});

describe('usePosteriorMapStore', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a), { fakeTimers: true });

  it('follows a decode: the map at the first row of the range, with a second of trail', async () => {
    const m = usePosteriorMapStore();
    await m.follow(FIELD, [20, 80]);
    expect(asked(api)).toEqual([{ row: 20, source: 'acausal', trailRows: 100 }]);
    expect(m.map?.row).toBe(20);
    expect(m.map?.mapPosition).toEqual([5 + 10 * fieldPeak(20)[0], 5 + 10 * fieldPeak(20)[1]]);
    // the same decode again asks nothing new
    await m.follow(FIELD, [20, 80]);
    expect(asked(api)).toHaveLength(1);
  });

  it('a scrub asks for one map at a time: the rows passed over while one is on its way become one request, the latest', async () => {
    const m = usePosteriorMapStore();
    const held = holdMaps(api);
    const first = m.follow(FIELD, [0, FIELD_ROWS]);
    for (const r of [5, 9, 14, 30]) void m.setRow(r);
    expect(m.row).toBe(30);
    await held.release();
    await held.release();
    await first;
    expect(asked(api).map((r) => r.row)).toEqual([0, 30]);
    expect(m.map?.row).toBe(30);
  });

  it('keeps the cursor inside the range the charts show', async () => {
    const m = usePosteriorMapStore();
    await m.follow(FIELD, [0, FIELD_ROWS]);
    await m.setRow(500);
    expect(m.row).toBe(FIELD_ROWS - 1);
    await m.setRange([40, 60]);
    expect(m.row).toBe(59);
    await m.setRow(-4);
    expect(m.row).toBe(40);
  });

  it('plays a step a frame while each frame\'s map is in, and stops at the end of the range', async () => {
    const m = usePosteriorMapStore();
    await m.follow(FIELD, [0, 40]);
    m.setSpeed(1);
    // at the recording's pace, 100 rows a second: 10 rows a frame
    expect(m.stepRows).toBe(10);
    m.play();
    await vi.advanceTimersByTimeAsync(MAP_FRAME_MS);
    expect(m.row).toBe(10);
    // a frame whose map has not come: the cursor waits for it
    const held = holdMaps(api);
    await vi.advanceTimersByTimeAsync(MAP_FRAME_MS);
    expect(m.row).toBe(20);
    await vi.advanceTimersByTimeAsync(3 * MAP_FRAME_MS);
    expect(m.row).toBe(20);
    api.getPosteriorMap = new FakeApi().getPosteriorMap;
    await held.release();
    await vi.advanceTimersByTimeAsync(2 * MAP_FRAME_MS);
    expect(m.row).toBe(39);
    expect(m.playing).toBe(false);
    // played to the end, play starts again from the range's start
    m.play();
    expect(m.row).toBe(0);
    m.pause();
    await vi.advanceTimersByTimeAsync(5 * MAP_FRAME_MS);
    expect(m.row).toBe(0);
  });

  it('a 1-D decode answers with an error to show, not a map', async () => {
    const m = usePosteriorMapStore();
    await m.follow({ ...FIELD, runId: 'run-1' }, [0, 100]);
    expect(m.map).toBeNull();
    expect(m.error).toContain('1-D');
  });

  it('a map for the decode shown before is dropped when it arrives late', async () => {
    const m = usePosteriorMapStore();
    const held = holdMaps(api);
    void m.follow(FIELD, [0, FIELD_ROWS]);
    void m.follow({ ...FIELD, source: 'causal' }, [0, FIELD_ROWS]);
    await held.release();
    await held.release();
    expect(m.map?.source).toBe('causal');
    expect(asked(api).map((r) => r.source)).toEqual(['acausal', 'causal']);
  });
});
