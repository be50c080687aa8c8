/**
 * Small fixtures the fault tests share: run configs on the presets, a throwaway runs folder, and
 * waits on what a run has reached. The heavier helpers (tmpfs, another user, another process) are
 * the run store's own, imported from src/main/service/store/runStoreTesting.testdata.ts; pages of
 * web mode's server are faultKitPages.ts'.
 */
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunConfig, StrategyChoice } from '../../src/shared/config';
import type { EngineExit, SpawnEngine } from '../../src/main/host';
import type { ProfilerService, RunStatusFile } from '../../src/main/service';
import { OTHER_UID, runScript, type WorkerResult } from '../../src/main/service/store/runStoreTesting.testdata';
import { whenSpansRecorded } from '../../src/main/service/timeline/liveSpans.testdata';

export { OTHER_UID };

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function presetRun(name: 'tiny' | 'small' | 'medium', extra: Partial<RunConfig> = {}, strategies: StrategyChoice[] = ['reference']): RunConfig {
  return {
    data: { kind: 'preset', name, seed: 42, features: 2, featureScale: 1 }, backend: 'wasm', strategies,
    repeats: 1, warmup: 0, local: false, saveLikelihood: false, trace: true, workers: 1, ...extra,
  };
}

/** a run long enough to be caught mid-way: a few seconds of engine work on this machine */
export const LONG_RUN = presetRun('medium', { repeats: 3 }, ['reference', 'compensated']);

/** a folder under the system's temporary one, traversable by other users (for the tests that switch user) */
export async function scratchFolder(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  await chmod(path, 0o755);
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** resolves once the engine has recorded a span of its own (its first is loading the data): it is past start-up and computing */
export function engineBusy(service: ProfilerService, runId: string): Promise<void> {
  return whenSpansRecorded(service, runId, 'load-data');
}

export async function statusOnDisk(runsDir: string, runId: string): Promise<RunStatusFile | undefined> {
  try {
    return JSON.parse(await readFile(join(runsDir, runId, 'status.json'), 'utf8')) as RunStatusFile;
  } catch {
    return undefined;
  }
}

/** Polls `check` every 25 ms until it gives a value, or fails after `ms` saying what it waited for. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (performance.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const FAULT_WORKER = fileURLToPath(new URL('./faultWorker.ts', import.meta.url));

/** Runs faultWorker.ts in a process of its own, as uid OTHER_UID when asked (see readOnlyViewer). */
export function runFaultWorker(args: string[], options: { asOtherUser?: boolean } = {}): Promise<WorkerResult> {
  return runScript(FAULT_WORKER, args, options);
}

/**
 * An engine that starts, records nothing of its own and runs until cancelled: a run that stays
 * 'running' for as long as a test needs, whatever the machine's speed.
 */
export function engineUntilCancelled(): SpawnEngine {
  return () => {
    let onExit: ((e: EngineExit) => void) | undefined;
    const exit = (e: EngineExit) => {
      const listener = onExit;
      onExit = undefined;
      listener?.(e);
    };
    return {
      pid: undefined,
      send: (m) => {
        if (m.type === 'cancel') setTimeout(() => exit({ code: 0, signal: null }), 10);
      },
      onMessage: () => {},
      onExit: (l) => (onExit = l),
      kill: () => exit({ code: null, signal: 'SIGKILL' }),
      stderrTail: () => '',
    };
  };
}
