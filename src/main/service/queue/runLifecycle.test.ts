/**
 * Nothing a run does can end the service: a run whose folder vanishes (another server deleted it)
 * or whose status cannot be written still ends once, with one final status, and the service goes
 * on answering. The engine is a stand-in child that exits when the test says so.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunConfig } from '../../../shared/config';
import type { RunEvent } from '../../../shared/events';
import type { EngineChild, EngineExit, SpawnEngine } from '../../host';
import { createProfilerService } from '../profilerService';
import { MAX_QUEUED_RUNS } from './runQueue';

const config: RunConfig = {
  data: { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 }, backend: 'wasm',
  strategies: ['reference'], repeats: 1, warmup: 0, local: false, saveLikelihood: false, trace: true,
};

/** a child that starts, says nothing, and exits with `code` when told */
function standInEngine(): { spawn: SpawnEngine; started: Promise<void>; exit(code: number): void } {
  let exitListener: ((e: EngineExit) => void) | undefined;
  let markStarted: () => void = () => {};
  const started = new Promise<void>((r) => (markStarted = r));
  const child: EngineChild = {
    pid: undefined,
    send: (m) => {
      if (m.type === 'start') markStarted();
    },
    onMessage: () => {},
    onExit: (l) => (exitListener = l),
    kill: () => exitListener?.({ code: null, signal: 'SIGKILL' }),
    stderrTail: () => '',
  };
  return { spawn: () => child, started, exit: (code) => exitListener?.({ code, signal: null }) };
}

describe('a run whose folder vanishes', () => {
  it('ends once as failed, tells the page without a stack, and leaves the service answering', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kde-lifecycle-'));
    const engine = standInEngine();
    const service = createProfilerService({ runsDir: dir, spawnEngine: engine.spawn });
    const events: RunEvent[] = [];
    service.subscribe('*', (e) => events.push(e));
    try {
      const { runId } = await service.startRun(config);
      await engine.started;
      await rm(join(dir, runId), { recursive: true, force: true });
      engine.exit(1);
      const final = await service.whenFinished(runId);
      expect(final.status).toBe('failed');
      const statuses = events.filter((e) => e.type === 'status' && e.runId === runId && !['queued', 'running'].includes(e.status));
      expect(statuses).toHaveLength(1);
      const logs = events.filter((e) => e.type === 'log' && e.runId === runId).map((e) => (e.type === 'log' ? e.message : ''));
      expect(logs.some((m) => /could not save the run's status/.test(m))).toBe(true);
      expect(logs.join('\n')).not.toMatch(/\n\s+at /);
      // the service still answers, and a new run starts and ends normally
      await expect(service.listRuns()).resolves.toBeInstanceOf(Array);
      const next = await service.startRun(config);
      await engine.started;
      engine.exit(1);
      expect((await service.whenFinished(next.runId)).status).toBe('failed');
    } finally {
      await service.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('the start queue', () => {
  it(`refuses a run beyond ${MAX_QUEUED_RUNS} waiting, with a clear error, and takes runs again once they leave`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kde-queue-'));
    const engine = standInEngine();
    const service = createProfilerService({ runsDir: dir, spawnEngine: engine.spawn });
    try {
      const first = await service.startRun(config);
      await engine.started;
      const waiting: string[] = [];
      for (let i = 0; i < MAX_QUEUED_RUNS; i++) waiting.push((await service.startRun(config)).runId);
      await expect(service.startRun(config)).rejects.toThrow(/64 runs are already waiting to start/);
      await service.cancelRun(waiting[0]!);
      await expect(service.startRun(config)).resolves.toHaveProperty('runId');
      engine.exit(1);
      expect((await service.whenFinished(first.runId)).status).toBe('failed');
    } finally {
      await service.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
