/**
 * Many pages watching one live run ask for the same timeline view: they cost one query together,
 * and a new batch of records (or a span opening) gives the next asker a fresh answer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TimelineRequest } from '../../shared/api';
import type { RunConfig } from '../../shared/config';
import type { TraceRecord } from '../../shared/events';
import type { OpenSpan } from '../engineProtocol';
import type { EngineChild, EngineExit, SpawnEngine } from '../host';
import { LiveTimeline } from './timeline/liveTimeline';
import { createProfilerService } from './profilerService';
import { queryTimeline } from './timeline/timelineQuery';

vi.mock('./timeline/timelineQuery', async (importOriginal) => {
  const real = await importOriginal<typeof import('./timeline/timelineQuery')>();
  return { ...real, queryTimeline: vi.fn(real.queryTimeline) };
});

const computed = vi.mocked(queryTimeline);
beforeEach(() => {
  computed.mockClear();
});

const span = (name: string, ts: number): TraceRecord => ({ ph: 'X', proc: 'engine', tid: 1, name, cat: 'engine', ts, dur: 1 });
const whole: TimelineRequest = { startUs: 0, endUs: 100, widthPx: 1200 };
/** a clock that never moves: every query after a change may rebuild */
const stillClock = { nowMs: () => 0 };

describe('LiveTimeline answers', () => {
  it('computes a view once for any number of identical asks, and once more for another width or window', () => {
    const live = new LiveTimeline(() => [], stillClock);
    live.append([span('a', 0), span('b', 5)]);
    const views = Array.from({ length: 20 }, () => live.query(whole));
    expect(computed).toHaveBeenCalledTimes(1);
    expect(new Set(views).size).toBe(1);
    expect(views[0]!.spans.map((s) => s.name)).toEqual(['a', 'b']);
    live.query({ ...whole, widthPx: 600 });
    live.query({ ...whole, endUs: 50 });
    live.query(whole);
    expect(computed).toHaveBeenCalledTimes(3);
  });

  it('answers afresh after a new batch of records, or when the open spans change', () => {
    let open: OpenSpan[] = [];
    const live = new LiveTimeline(() => open, stillClock);
    live.append([span('a', 0)]);
    const before = live.query(whole);
    live.append([span('b', 5)]);
    const after = live.query(whole);
    expect(after).not.toBe(before);
    expect([before.totalEvents, after.totalEvents]).toEqual([1, 2]);
    expect(after.spans.map((s) => s.name)).toEqual(['a', 'b']);
    open = [{ proc: 'engine', tid: 1, name: 'c', startUs: 7 }];
    expect(live.query(whole).spans.map((s) => s.name)).toEqual(['a', 'b', 'c']);
    expect(live.query(whole)).toBe(live.query(whole));
    expect(computed).toHaveBeenCalledTimes(3);
  });
});

/** an engine that sends the batches the test gives it, and exits when told */
function talkingEngine(): { spawn: SpawnEngine; started: Promise<void>; send(records: TraceRecord[]): void; exit(): void } {
  let toHost: ((m: unknown) => void) | undefined;
  let onExit: ((e: EngineExit) => void) | undefined;
  let markStarted: () => void = () => {};
  const started = new Promise<void>((r) => (markStarted = r));
  const child: EngineChild = {
    pid: undefined,
    send: (m) => {
      if (m.type === 'start') markStarted();
      if (m.type === 'cancel') onExit?.({ code: 0, signal: null });
    },
    onMessage: (l) => (toHost = l),
    onExit: (l) => (onExit = l),
    kill: () => onExit?.({ code: null, signal: 'SIGKILL' }),
    stderrTail: () => '',
  };
  return { spawn: () => child, started, send: (records) => toHost?.({ type: 'trace', records }), exit: () => onExit?.({ code: 1, signal: null }) };
}

describe('the service answering pages that watch a live run', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kde-live-answers-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('computes 20 identical concurrent timeline asks once, and again once a new batch arrived', async () => {
    const engine = talkingEngine();
    const service = createProfilerService({ runsDir: dir, spawnEngine: engine.spawn });
    const config: RunConfig = {
      data: { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 }, backend: 'wasm',
      strategies: ['reference'], repeats: 1, warmup: 0, local: false, saveLikelihood: false, trace: true,
    };
    try {
      const { runId } = await service.startRun(config);
      await engine.started;
      engine.send([span('a', 0), span('b', 5)]);
      const ask = () => Promise.all(Array.from({ length: 20 }, () => service.getTimeline(runId, whole)));
      const first = await ask();
      expect(computed).toHaveBeenCalledTimes(1);
      expect(first.every((v) => v.spans.some((s) => s.name === 'a'))).toBe(true);

      engine.send([span('c', 9)]);
      // the live index is rebuilt at most every few times its build time: wait out that gap
      await new Promise((r) => setTimeout(r, 20));
      const second = await ask();
      expect(computed).toHaveBeenCalledTimes(2);
      expect(second[0]!.totalEvents).toBe(first[0]!.totalEvents + 1);
      expect(new Set(second).size).toBe(1);
      engine.exit();
      await service.whenFinished(runId);
    } finally {
      await service.close();
    }
  });
});
