/**
 * The ProfilerApi contract, written once and run against every transport (WebSocket and IPC):
 * the same calls must give the same answers and the same AppError codes through either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfilerApi } from '../../src/shared/api';
import { AppError } from '../../src/shared/errors';
import type { RunEvent } from '../../src/shared/events';
import { createSweepFolder, saveSweep, sweepResultOf } from '../../src/main/service';
import type { SweepResult } from '../../src/shared/sweep';
import { nwbMappingContract } from './nwbContract';

export interface Transport {
  api: ProfilerApi;
  /** the runs folder of the service behind the transport, where a sweep can be put for the sweep calls */
  runsDir: string;
  close(): Promise<void>;
}

const TINY = { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 } as const;
const UNKNOWN_RUN = '20000101-000000-abcdef';

/** a sweep as `kde-profiler sweep` leaves one, without running it */
async function putSweep(runsDir: string): Promise<SweepResult> {
  const id = '20260105-000000-abcdef';
  const sweep = sweepResultOf({
    id, createdAt: '2026-01-05T00:00:00.000Z', vary: 'encoding-spikes', values: [20, 40], data: 'preset:tiny', notes: [],
    config: { data: TINY, backend: 'wasm', strategies: ['reference'], repeats: 2, warmup: 0, local: false, saveLikelihood: false, trace: true },
  }, [
    { value: 20, runId: null, status: 'pending', dataPath: '/x/a.npz' },
    { value: 40, runId: null, status: 'pending', dataPath: '/x/b.npz' },
  ], [null, null], 'running');
  await createSweepFolder(runsDir, id);
  await saveSweep(runsDir, sweep);
  return sweep;
}

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e, 'expected the call to fail').toBeInstanceOf(AppError);
  return e as AppError;
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function describeApiContract(name: string, open: () => Promise<Transport>): void {
  describe(`ProfilerApi contract over ${name}`, () => {
    let t: Transport;
    let runId: string;
    const allEvents: RunEvent[] = [];
    const runEvents: RunEvent[] = [];

    beforeAll(async () => {
      t = await open();
    });
    afterAll(async () => {
      await t?.close();
    });

    it('getInfo describes the machine and its backends', async () => {
      const info = await t.api.getInfo();
      expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(info.cpus).toBeGreaterThan(0);
      const wasm = info.backends.find((b) => b.name === 'wasm');
      expect(wasm?.available).toBe(true);
    });

    it('listPresets includes tiny', async () => {
      const presets = await t.api.listPresets();
      expect(presets.map((p) => p.name)).toContain('tiny');
      expect(presets.find((p) => p.name === 'tiny')!.nElectrodes).toBeGreaterThan(0);
    });

    it('inspectData summarises a preset', async () => {
      const inspection = await t.api.inspectData(TINY);
      expect(inspection.summary).not.toBeNull();
      expect(inspection.summary!.electrodes.length).toBeGreaterThan(0);
      expect(Array.isArray(inspection.findings)).toBe(true);
    });

    it('startRun runs a tiny preset; events arrive by subscription; getRun shows the completed report', async () => {
      const offAll = t.api.subscribe('*', (e) => allEvents.push(e));
      const started = await t.api.startRun({ data: TINY, backend: 'wasm', strategies: ['reference'], repeats: 1, warmup: 0, local: false, saveLikelihood: false, trace: true });
      runId = started.runId;
      const offRun = t.api.subscribe(runId, (e) => runEvents.push(e));
      const finished = () => allEvents.some((e) => e.runId === runId && e.type === 'status' && e.status !== 'queued' && e.status !== 'running');
      await until(finished, 90_000);
      const final = allEvents.filter((e) => e.runId === runId && e.type === 'status').at(-1);
      expect(final).toMatchObject({ type: 'status', status: 'completed' });
      expect(allEvents.some((e) => e.runId === runId && e.type === 'progress')).toBe(true);
      expect(allEvents.some((e) => e.runId === runId && e.type === 'timeline')).toBe(true);
      await until(() => runEvents.some((e) => e.type === 'status' && e.status === 'completed'), 5_000);
      offAll();
      offRun();

      const detail = await t.api.getRun(runId);
      expect(detail.entry.id).toBe(runId);
      expect(detail.entry.status).toBe('completed');
      expect(detail.report).not.toBeNull();
      expect(detail.config.strategies).toEqual(['reference']);
    });

    it('lists the run and serves its views', async () => {
      expect((await t.api.listRuns()).map((r) => r.id)).toContain(runId);
      const timeline = await t.api.getTimeline(runId, { startUs: 0, endUs: 1e9, widthPx: 800 });
      expect(timeline.totalEvents).toBeGreaterThan(0);
      expect(Array.isArray(await t.api.getCounters(runId))).toBe(true);
      const exported = await t.api.exportRun(runId, 'json');
      expect(exported.fileName).toMatch(/\.json$/);
      expect(exported.base64 ?? exported.savedPath).toBeTruthy();
    });

    it('getPosterior: a benchmark run has none and says how to get one; a bad request names its key', async () => {
      const missing = await errorOf(t.api.getPosterior(runId, {}));
      expect(missing.code).toBe('NOT_FOUND');
      expect(missing.message).toContain('--model');
      const bad = await errorOf(t.api.getPosterior(runId, { source: 'smoothed' } as never));
      expect([bad.code, bad.location?.key]).toEqual(['BAD_ARGUMENT', 'request.source']);
      expect((await errorOf(t.api.getPosterior(runId, 'all' as never))).code).toBe('BAD_ARGUMENT');
    });

    it('getPosteriorMap: a benchmark run has no posterior to map; a bad row or run id is refused by name', async () => {
      expect((await errorOf(t.api.getPosteriorMap(runId, { row: 0 }))).code).toBe('NOT_FOUND');
      const bad = await errorOf(t.api.getPosteriorMap(runId, { row: -1 }));
      expect([bad.code, bad.location?.key]).toEqual(['BAD_ARGUMENT', 'request.row']);
      expect((await errorOf(t.api.getPosteriorMap(runId, 'row 3' as never))).code).toBe('BAD_ARGUMENT');
      expect((await errorOf(t.api.getPosteriorMap('../etc', { row: 0 }))).code).toBe('BAD_ARGUMENT');
    });

    it('a bad run config fails with BAD_ARGUMENT naming the key', async () => {
      const e = await errorOf(t.api.startRun({ data: { ...TINY, name: 'enormous' } } as never));
      expect(e.code).toBe('BAD_ARGUMENT');
      expect(e.message).toContain('data.name');
      expect(e.location?.key).toBe('data.name');
      expect((await errorOf(t.api.estimateMemory({ data: TINY, repeats: -1 } as never))).code).toBe('BAD_ARGUMENT');
    });

    it('arguments of the wrong shape fail with BAD_ARGUMENT before reaching the service', async () => {
      expect((await errorOf(t.api.getRun(42 as never))).code).toBe('BAD_ARGUMENT');
      expect((await errorOf(t.api.getRun('../../etc'))).code).toBe('BAD_ARGUMENT');
      expect((await errorOf(t.api.compareRuns(runId, runId, 'x' as never))).code).toBe('BAD_ARGUMENT');
    });

    it('an unknown run fails with NOT_FOUND', async () => {
      expect((await errorOf(t.api.getRun(UNKNOWN_RUN))).code).toBe('NOT_FOUND');
      expect((await errorOf(t.api.getTimeline(UNKNOWN_RUN, { startUs: 0, endUs: 1, widthPx: 10 }))).code).toBe('NOT_FOUND');
    });

    it('listSweeps and getSweep answer for the sweeps of the runs folder; a bad id is refused before the service, an unknown one is NOT_FOUND', async () => {
      expect(await t.api.listSweeps()).toEqual([]);
      const sweep = await putSweep(t.runsDir);
      expect((await t.api.listSweeps()).map((s) => [s.id, s.vary, s.values])).toEqual([[sweep.id, 'encoding-spikes', [20, 40]]]);
      expect(await t.api.getSweep(sweep.id)).toEqual(sweep);
      for (const bad of ['../../etc', 'sweeps', 42]) {
        const e = await errorOf(t.api.getSweep(bad as never));
        expect(e.code).toBe('BAD_ARGUMENT');
        expect(e.message).toMatch(/getSweep: argument 1 must be a sweep id/);
      }
      expect((await errorOf(t.api.getSweep('20000101-000000-abcdef'))).code).toBe('NOT_FOUND');
      expect((await errorOf((t.api.listSweeps as (...a: unknown[]) => Promise<unknown>)('extra'))).code).toBe('BAD_ARGUMENT');
    });

    it('deleteRun removes the run', async () => {
      await t.api.deleteRun(runId);
      expect((await errorOf(t.api.getRun(runId))).code).toBe('NOT_FOUND');
    });

    nwbMappingContract(() => t.api);
  });
}
