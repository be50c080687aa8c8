/**
 * A run whose folder cannot take its 'running' status ends failed, and only once its engine has
 * exited: an engine left computing would run beside the next queued run, distorting its timings.
 * The folder is broken for real (status.json replaced by a folder, so the atomic rename fails) at
 * the moment the engine is started; the engines are stand-ins that ignore a cancel, as a busy
 * engine may, so only the kill after the grace period ends them.
 *
 * A final status that a full disk refused is saved once space is back, the next time runs are
 * listed, so other readers of the folder stop seeing the run as running.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunConfig } from '../../../shared/config';
import type { RunEvent } from '../../../shared/events';
import type { EngineChild, EngineExit, SpawnEngine } from '../../host';
import { createProfilerService } from '../profilerService';

/** while set, every fs/promises writeFile fails with this errno, as on a full disk */
const injected = vi.hoisted(() => ({ code: undefined as string | undefined }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const writeFile: typeof real.writeFile = async (path, ...rest) => {
    const where = typeof path === 'string' ? path : 'a file handle';
    if (injected.code) throw Object.assign(new Error(`${injected.code}: injected failure, open '${where}'`), { code: injected.code, syscall: 'open' });
    return real.writeFile(path, ...rest);
  };
  return { ...real, writeFile, default: { ...real, writeFile } };
});

afterEach(() => {
  injected.code = undefined;
});

const config: RunConfig = {
  data: { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 }, backend: 'wasm',
  strategies: ['reference'], repeats: 1, warmup: 0, local: false, saveLikelihood: false, trace: true,
};

interface StandIn {
  alive: boolean;
  cancelAsked: boolean;
  exit(code: number): void;
}

/**
 * Stand-in engines, in the order spawned. `timeline` says what happened in which order; with
 * `breakFirstFolder` the first engine breaks its run's folder as it is told to start.
 */
function standInEngines(timeline: string[], breakFirstFolder = false): { spawn: SpawnEngine; engines: StandIn[] } {
  const engines: StandIn[] = [];
  const spawn: SpawnEngine = () => {
    const n = engines.length;
    let onExit: ((e: EngineExit) => void) | undefined;
    const engine: StandIn = {
      alive: true,
      cancelAsked: false,
      exit(code) {
        if (!engine.alive) return;
        engine.alive = false;
        timeline.push(`engine ${n} exited`);
        onExit?.({ code, signal: code === 0 ? null : 'SIGKILL' });
      },
    };
    engines.push(engine);
    timeline.push(`engine ${n} spawned`);
    const child: EngineChild = {
      pid: undefined,
      send(m) {
        if (m.type === 'cancel') engine.cancelAsked = true;
        if (m.type === 'start' && n === 0 && breakFirstFolder) {
          rmSync(join(m.runDir, 'status.json'), { force: true });
          mkdirSync(join(m.runDir, 'status.json'));
        }
      },
      onMessage: () => {},
      onExit: (l) => (onExit = l),
      kill: () => engine.exit(137),
      stderrTail: () => '',
    };
    return child;
  };
  return { spawn, engines };
}

describe('a run whose status cannot be saved at its start', () => {
  it('stops its engine and ends failed only once the engine exited; the next queued run starts after that', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kde-start-unsaved-'));
    const timeline: string[] = [];
    const { spawn, engines } = standInEngines(timeline, true);
    const service = createProfilerService({ runsDir: dir, spawnEngine: spawn });
    const events: RunEvent[] = [];
    service.subscribe('*', (e) => {
      events.push(e);
      if (e.type === 'status' && e.status === 'failed') timeline.push(`${e.runId} failed`);
    });
    try {
      const first = await service.startRun(config);
      const second = await service.startRun(config);
      const final = await service.whenFinished(first.runId);
      expect(final.status).toBe('failed');
      expect(engines[0]!.cancelAsked).toBe(true);
      expect(engines[0]!.alive).toBe(false);
      // one engine at a time: the second starts only after the first is gone
      expect(timeline.slice(0, 4)).toEqual(['engine 0 spawned', 'engine 0 exited', `${first.runId} failed`, 'engine 1 spawned']);
      expect(final.error?.code).toBe('IO');
      expect(final.error?.message).toContain(`could not save the run's status in ${join(service.runsDir, first.runId)}`);
      expect(final.error?.message).toContain('The engine was stopped before the next run started.');
      expect(final.error?.message).not.toMatch(/\n\s+at /);
      expect(events.filter((e) => e.type === 'status' && e.runId === first.runId).map((e) => e.type === 'status' && e.status)).toEqual(['queued', 'failed']);

      engines[1]!.exit(1);
      expect((await service.whenFinished(second.runId)).status).toBe('failed');
      expect((await service.listRuns()).find((r) => r.id === first.runId)?.status).toBe('failed');
    } finally {
      await service.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('a final status that the runs folder refused', () => {
  it('is kept in memory and saved when runs are listed once the folder takes writes again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kde-final-unsaved-'));
    const timeline: string[] = [];
    const { spawn, engines } = standInEngines(timeline);
    const service = createProfilerService({ runsDir: dir, spawnEngine: spawn });
    const onDisk = async (id: string) => (JSON.parse(await readFile(join(dir, id, 'status.json'), 'utf8')) as { status: string }).status;
    try {
      const { runId } = await service.startRun(config);
      for (let i = 0; i < 200 && (await onDisk(runId).catch(() => '')) !== 'running'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(await onDisk(runId)).toBe('running');

      injected.code = 'ENOSPC';
      engines[0]!.exit(1);
      expect((await service.whenFinished(runId)).status).toBe('failed');
      expect((await service.listRuns()).find((r) => r.id === runId)?.status).toBe('failed');
      expect(await onDisk(runId)).toBe('running');

      injected.code = undefined;
      expect((await service.listRuns()).find((r) => r.id === runId)?.status).toBe('failed');
      expect(await onDisk(runId)).toBe('failed');
    } finally {
      await service.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
