import { describe, expect, it, vi } from 'vitest';
import type { RunConfig } from '../../../shared/config';
import type { TraceRecord } from '../../../shared/events';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { TIMELINE_REFRESH_MS, useLiveRunStore } from './liveRunStore';

const config: RunConfig = {
  data: { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 },
  backend: 'wasm', strategies: ['reference'], repeats: 1, warmup: 0, local: false, saveLikelihood: false, trace: true,
};

const counter = (ts: number, rss: number): TraceRecord => ({ ph: 'C', proc: 'engine', name: 'memory (MB)', ts, args: { rss, heapUsed: rss / 2 } });

describe('useLiveRunStore', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a), { fakeTimers: true });

  it('starts a run, then a pushed progress event updates progress and ETA', async () => {
    const live = useLiveRunStore();
    const id = await live.start(config);
    expect(id).toBe('run-1');
    expect(api.callsOf('startRun')[0]!.args[0]).toEqual(config);
    expect(live.phase).toBe('running');
    api.emit({ type: 'progress', runId: 'run-1', progress: { fraction: 0.25, label: 'reference · decode', elapsedMs: 3000 } });
    expect(live.progress?.label).toBe('reference · decode');
    expect(live.etaMs).toBeCloseTo(9000);
    api.emit({ type: 'progress', runId: 'run-1', progress: { fraction: 0.5, label: 'x', elapsedMs: 4000, etaMs: 1234 } });
    expect(live.etaMs).toBe(1234);
  });

  it("reads the last progress report's elapsed time while running, the trace's length once it ended", async () => {
    const live = useLiveRunStore();
    await live.start(config);
    api.emit({ type: 'progress', runId: 'run-1', progress: { fraction: 0.1, label: 'reference · cold', elapsedMs: 700 } });
    api.emit({ type: 'trace', runId: 'run-1', records: [{ ph: 'X', proc: 'service', tid: 1, name: 'engine process', cat: 'service', ts: 0, dur: 1_600_000 }] });
    expect(live.elapsedMs).toBe(700);
    api.emit({ type: 'status', runId: 'run-1', status: 'cancelled' });
    expect(live.elapsedMs).toBe(1600);
  });

  it('ignores events of other runs and keeps events that came before startRun answered', async () => {
    const live = useLiveRunStore();
    api.startRun = async () => {
      api.emit({ type: 'status', runId: 'run-1', status: 'running' });
      api.emit({ type: 'progress', runId: 'run-1', progress: { fraction: 0.1, label: 'early', elapsedMs: 10 } });
      api.emit({ type: 'progress', runId: 'other', progress: { fraction: 0.9, label: 'other run', elapsedMs: 10 } });
      return { runId: 'run-1' };
    };
    await live.start(config);
    expect(live.progress?.label).toBe('early');
    api.emit({ type: 'progress', runId: 'other', progress: { fraction: 0.9, label: 'still other', elapsedMs: 10 } });
    expect(live.progress?.label).toBe('early');
  });

  it('accumulates counters from trace batches for the memory graph', async () => {
    const live = useLiveRunStore();
    await live.start(config);
    api.emit({ type: 'trace', runId: 'run-1', records: [counter(0, 100), counter(1000, 150)] });
    api.emit({ type: 'trace', runId: 'run-1', records: [counter(2000, 120), { ph: 'X', proc: 'engine', tid: 1, name: 'decode', cat: 'engine', ts: 1500, dur: 1000 }] });
    const rss = live.counters.find((s) => s.key === 'rss');
    expect(rss?.points).toEqual([[0, 100], [1000, 150], [2000, 120]]);
    expect(rss?.proc).toBe('engine');
    expect(live.counters.map((s) => s.key).sort()).toEqual(['heapUsed', 'rss']);
    expect(live.latestUs).toBe(2500);
  });

  it('refreshes the timeline at most ~4 Hz while batches arrive', async () => {
    const live = useLiveRunStore();
    await live.start(config);
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS);
    const before = api.callsOf('getTimeline').length;
    for (let i = 0; i < 20; i++) {
      api.emit({ type: 'trace', runId: 'run-1', records: [counter(i * 100, i)] });
      await vi.advanceTimersByTimeAsync(25);
    }
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS);
    const calls = api.callsOf('getTimeline').length - before;
    // 20 batches over 500 ms: about two refreshes plus the trailing one, never twenty
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(calls).toBeLessThanOrEqual(4);
    expect(live.timeline?.spans.length).toBeGreaterThan(0);
  });

  it('asks for the visible window with margin once the user zoomed', async () => {
    const live = useLiveRunStore();
    await live.start(config);
    api.emit({ type: 'trace', runId: 'run-1', records: [counter(10_000, 1)] });
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS * 2);
    live.setWindow({ startUs: 4000, endUs: 6000 });
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS * 2);
    const last = api.callsOf('getTimeline').at(-1)!;
    expect(last.args[1]).toMatchObject({ startUs: 3000, endUs: 7000 });
  });

  it('cancel calls the api and a cancelled status ends the run', async () => {
    const live = useLiveRunStore();
    await live.start(config);
    await live.cancel();
    expect(api.callsOf('cancelRun').map((c) => c.args[0])).toEqual(['run-1']);
    expect(live.cancelling).toBe(true);
    api.emit({ type: 'status', runId: 'run-1', status: 'cancelled' });
    expect(live.phase).toBe('cancelled');
    expect(live.running).toBe(false);
    expect(live.cancelling).toBe(false);
    expect(live.error).toBeNull();
  });

  it('shows the error of a failed run and of a refused start', async () => {
    const live = useLiveRunStore();
    await live.start(config);
    api.emit({ type: 'status', runId: 'run-1', status: 'failed', error: { name: 'AppError', code: 'RUN_FAILED', message: 'engine ran out of memory' } });
    expect(live.error).toEqual({ code: 'RUN_FAILED', message: 'engine ran out of memory' });
    api.startRun = async () => {
      throw Object.assign(new Error('backend webgpu is not available'), { code: 'BACKEND_UNAVAILABLE' });
    };
    expect(await live.start(config)).toBeNull();
    expect(live.phase).toBe('failed');
    expect(live.error?.code).toBe('BACKEND_UNAVAILABLE');
    expect(api.subscriberCount).toBe(0);
  });

  it('attaches to an existing run: status, counters and timeline from the service', async () => {
    const live = useLiveRunStore();
    await live.attach('run-7');
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS);
    expect(live.phase).toBe('completed');
    expect(live.counters.length).toBe(3);
    expect(api.callsOf('getTimeline')[0]!.args[0]).toBe('run-7');
    expect(live.timeline).not.toBeNull();
  });
});
