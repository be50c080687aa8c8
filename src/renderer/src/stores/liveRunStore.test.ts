import { describe, expect, it, vi } from 'vitest';
import type { LaneChange } from '../../../shared/api';
import type { RunConfig } from '../../../shared/config';
import { counterDeltasOf } from '../../../shared/counterSeries';
import type { RunEvent, TraceRecord } from '../../../shared/events';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { report, runDetail, runEntry } from '../testing/sampleData';
import { TIMELINE_REFRESH_MS, useLiveRunStore } from './liveRunStore';

const config: RunConfig = {
  data: { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 },
  backend: 'wasm', strategies: ['reference'], repeats: 1, warmup: 0, local: false, saveLikelihood: false, trace: true,
};

const counter = (ts: number, rss: number): TraceRecord => ({ ph: 'C', proc: 'engine', name: 'memory (MB)', ts, args: { rss, heapUsed: rss / 2 } });

/** what the service tells a page once these records arrived: their counter points, how far they reach, what changed where */
const notice = (records: TraceRecord[], changed: LaneChange[] = []): RunEvent => ({
  type: 'timeline', runId: 'run-1', latestUs: Math.max(...records.map((r) => ('ts' in r ? r.ts + ('dur' in r ? r.dur : 0) : 0))),
  changed, lanesChanged: false, counters: counterDeltasOf(records),
});
const engineLane = (startUs: number, endUs: number): LaneChange => ({ lane: { process: 'engine', thread: 1 }, startUs, endUs });

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
    // the time left is the run's to tell, as on the terminal: none is made up from the share
    expect(live.etaMs).toBeUndefined();
    api.emit({ type: 'progress', runId: 'run-1', progress: { fraction: 0.5, label: 'x', elapsedMs: 4000, etaMs: 1234 } });
    expect(live.etaMs).toBe(1234);
  });

  it("counts the elapsed time on from the last progress report while running, never behind the trace, and the trace's length once it ended", async () => {
    const live = useLiveRunStore();
    await live.start(config);
    api.emit({ type: 'progress', runId: 'run-1', progress: { fraction: 0.1, label: 'reference · cold', elapsedMs: 700 } });
    expect(live.elapsedMs).toBe(700);
    // the trace reaches further than the report: the page shows the trace's time, as its timeline does
    api.emit(notice([{ ph: 'X', proc: 'service', tid: 1, name: 'engine process', cat: 'service', ts: 0, dur: 1_600_000 }], [{ lane: { process: 'service', thread: 1 }, startUs: 0, endUs: 1_600_000 }]));
    expect(live.elapsedMs).toBe(1600);
    // a step can take many seconds: the time goes on between reports
    await vi.advanceTimersByTimeAsync(3_000);
    expect(live.elapsedMs).toBe(3700);
    api.emit(notice([{ ph: 'X', proc: 'service', tid: 1, name: 'engine process', cat: 'service', ts: 0, dur: 3_900_000 }], [{ lane: { process: 'service', thread: 1 }, startUs: 0, endUs: 3_900_000 }]));
    api.emit({ type: 'status', runId: 'run-1', status: 'cancelled' });
    expect(live.elapsedMs).toBe(3900);
    // once it ended, the time stops
    await vi.advanceTimersByTimeAsync(5_000);
    expect(live.elapsedMs).toBe(3900);
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

  it('accumulates counters from the notices for the memory graph', async () => {
    const live = useLiveRunStore();
    await live.start(config);
    api.emit(notice([counter(0, 100), counter(1000, 150)]));
    api.emit(notice([counter(2000, 120), { ph: 'X', proc: 'engine', tid: 1, name: 'decode', cat: 'engine', ts: 1500, dur: 1000 }], [engineLane(1500, 2500)]));
    const rss = live.counters.find((s) => s.key === 'rss');
    expect(rss?.points).toEqual([[0, 100], [1000, 150], [2000, 120]]);
    expect(rss?.proc).toBe('engine');
    expect(live.counters.map((s) => s.key).sort()).toEqual(['heapUsed', 'rss']);
    expect(live.latestUs).toBe(2500);
  });

  it('refreshes the timeline at most ~4 Hz while notices arrive', async () => {
    const live = useLiveRunStore();
    await live.start(config);
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS);
    const before = api.callsOf('getTimeline').length;
    for (let i = 0; i < 20; i++) {
      api.emit(notice([counter(i * 100, i)]));
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
    api.emit(notice([counter(10_000, 1)]));
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS * 2);
    live.setWindow({ startUs: 4000, endUs: 6000 });
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS * 2);
    const last = api.callsOf('getTimeline').at(-1)!;
    expect(last.args[1]).toMatchObject({ startUs: 3000, endUs: 7000 });
  });

  it('asks again, once zoomed, only when a notice says something changed in the window it asks for', async () => {
    const live = useLiveRunStore();
    await live.start(config);
    api.emit(notice([counter(10_000, 1)]));
    live.setWindow({ startUs: 4000, endUs: 6000 });
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS * 2);
    const asked = () => api.callsOf('getTimeline').length;
    const before = asked();
    api.emit(notice([counter(12_000, 2), { ph: 'X', proc: 'engine', tid: 1, name: 'decode', cat: 'engine', ts: 11_000, dur: 1000 }], [engineLane(11_000, 12_000)]));
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS * 2);
    expect(asked()).toBe(before);
    // the counters still follow the run
    expect(live.counters.find((s) => s.key === 'rss')?.points.at(-1)).toEqual([12_000, 2]);
    api.emit(notice([{ ph: 'X', proc: 'engine', tid: 1, name: 'decode', cat: 'engine', ts: 6500, dur: 100 }], [engineLane(6500, 6600)]));
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS * 2);
    expect(asked()).toBe(before + 1);
    api.emit({ ...notice([counter(13_000, 3)]), lanesChanged: true } as RunEvent);
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS * 2);
    expect(asked()).toBe(before + 2);
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

  it('a completed run opened later shows 100 %, its wall time and its status from the record', async () => {
    api.getRun = async (id) => ({ ...runDetail(id), entry: runEntry(id, { createdAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:01:30.000Z' }) });
    const live = useLiveRunStore();
    await live.attach('run-7');
    expect(live.phase).toBe('completed');
    expect(live.finished).toBe(true);
    expect(live.progress?.fraction).toBe(1);
    // the counters' trace reaches 1 ms; the record's 90 s is the longer and wins
    expect(live.elapsedMs).toBe(90_000);
    expect(live.recordNote).toBe('');
  });

  it('a cancelled run opened later shows how many strategies finished, not 0 %', async () => {
    api.getRun = async (id) => {
      const d = runDetail(id);
      const r = report({ runId: id, status: 'cancelled', strategies: [report().strategies[0]!] });
      const config = { ...d.config, strategies: ['reference', 'compensated', 'streaming', 'chunked'] as typeof d.config.strategies };
      return { config, report: r, entry: runEntry(id, { status: 'cancelled', finishedAt: '2026-01-01T00:00:12.000Z' }) };
    };
    const live = useLiveRunStore();
    await live.attach('run-7');
    expect(live.phase).toBe('cancelled');
    expect(live.progress?.fraction).toBe(0.25);
    expect(live.recordNote).toBe('1 of 4 strategies finished');
    expect(live.elapsedMs).toBe(12_000);
  });

  it('a failed run without a report has no progress to show, but its error and wall time', async () => {
    api.getCounters = async () => [];
    api.getRun = async (id) => ({
      ...runDetail(id), report: null,
      entry: runEntry(id, { status: 'failed', finishedAt: '2026-01-01T00:00:02.500Z', error: { name: 'AppError', code: 'RUN_FAILED', message: 'engine crashed' } }),
    });
    const live = useLiveRunStore();
    await live.attach('run-7');
    expect(live.phase).toBe('failed');
    expect(live.progress).toBeNull();
    expect(live.error?.message).toBe('engine crashed');
    expect(live.elapsedMs).toBe(2500);
  });

  it('a run that is still running takes its progress from its events, not from the record', async () => {
    api.getRun = async (id) => ({ ...runDetail(id), report: null, entry: runEntry(id, { status: 'running' }) });
    const live = useLiveRunStore();
    await live.attach('run-7');
    expect(live.running).toBe(true);
    expect(live.progress).toBeNull();
    api.emit({ type: 'progress', runId: 'run-7', progress: { fraction: 0.4, label: 'reference · decode', elapsedMs: 800 } });
    expect(live.progress?.fraction).toBe(0.4);
    expect(live.elapsedMs).toBe(800);
  });

  it('a run that does not exist says so in one sentence and stops listening for it', async () => {
    const real = api.getRun;
    api.getRun = async (id) => {
      throw Object.assign(new Error(`run ${id} not found in /runs: list runs to see the ids there.`), { code: 'NOT_FOUND', location: { key: id } });
    };
    const live = useLiveRunStore();
    await live.attach('20250101-120000-abcdef');
    await vi.advanceTimersByTimeAsync(TIMELINE_REFRESH_MS * 2);
    expect(live.missing).toBe(true);
    expect(live.error?.message).toBe('run 20250101-120000-abcdef was not found: it may have been deleted. Pick another run from Runs.');
    expect(live.runId).toBe('20250101-120000-abcdef');
    expect(api.subscriberCount).toBe(0);
    expect(api.callsOf('getTimeline')).toHaveLength(0);
    // the next run watched starts clean
    api.getRun = real;
    await live.attach('run-1');
    expect(live.missing).toBe(false);
    expect(live.error).toBeNull();
  });
});
