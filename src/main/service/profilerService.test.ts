import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunConfig, StrategyChoice } from '../../shared/config';
import type { RunEvent } from '../../shared/events';
import { readNdjsonRecords, validateReport } from '../export';
import { newRunId } from './store/runIds';
import { createProfilerService, type ProfilerService } from './profilerService';
import { whenSpansRecorded } from './timeline/liveSpans.testdata';

let dir: string;
let service: ProfilerService;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'profiler-service-'));
  service = createProfilerService({ runsDir: dir });
});
afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

function config(name: 'tiny' | 'medium', strategies: StrategyChoice[], extra: Partial<RunConfig> = {}): RunConfig {
  return {
    data: { kind: 'preset', name, seed: 42, features: 2, featureScale: 1 }, backend: 'wasm', strategies,
    repeats: 2, warmup: 1, local: false, saveLikelihood: false, trace: true, ...extra,
  };
}

/** resolves once the engine has recorded a cold call (it is past start-up and computing) */
function engineBusy(runId: string): Promise<void> {
  return whenSpansRecorded(service, runId, 'cold');
}

function parseTrace(bytes: Buffer): { traceEvents: { ph: string; name: string; pid: number }[] } {
  return JSON.parse(gunzipSync(bytes).toString('utf8'));
}

describe('profiler service with the engine process', () => {
  it('runs a preset end to end and serves its report, events, timeline, counters, likelihood and exports', async () => {
    const events: RunEvent[] = [];
    const off = service.subscribe('*', (e) => events.push(e));
    // one engine thread: the lanes below are the engine process's own (workers get lanes of their own)
    const { runId } = await service.startRun(config('tiny', ['reference', 'compensated'], { saveLikelihood: true, local: true, workers: 1 }));
    const entry = await service.whenFinished(runId);
    off();
    expect(entry.status).toBe('completed');
    expect(entry.headline.map((h) => h.strategy)).toEqual(['reference', 'compensated']);
    expect(events.filter((e) => e.type === 'status').map((e) => e.type === 'status' && e.status)).toEqual(['queued', 'running', 'completed']);
    // a page hears that the run runs before it hears of its timeline, and its last notice before the run's end
    const running = events.findIndex((e) => e.type === 'status' && e.status === 'running');
    const notices = events.flatMap((e, i) => (e.type === 'timeline' ? [i] : []));
    expect(notices.length).toBeGreaterThan(0);
    expect(notices[0]!).toBeGreaterThan(running);
    expect(notices.at(-1)!).toBeLessThan(events.findIndex((e) => e.type === 'status' && e.status === 'completed'));
    expect(events.some((e) => e.type === 'progress')).toBe(true);

    const detail = await service.getRun(runId);
    expect(validateReport(detail.report)).toEqual({ ok: true, errors: [] });
    expect(detail.report!.strategies.every((s) => s.status === 'ok')).toBe(true);
    expect(detail.report!.strategies[0]!.memory!.peakRssBytes).toBeGreaterThan(0);

    const { records, badLines } = await readNdjsonRecords(join(dir, runId, 'events.ndjson'));
    expect(badLines).toBe(0);
    expect(records.some((r) => r.ph === 'C' && r.name === 'engine memory (MB)')).toBe(true);

    // the whole run at 1200 px: a tiny run lasts well under a second, so a fixed minute-wide window
    // would merge a short strategy span into its neighbours' pixel
    const { totalUs } = await service.getTimeline(runId, { startUs: 0, endUs: 60e6, widthPx: 1200 });
    const view = await service.getTimeline(runId, { startUs: 0, endUs: totalUs, widthPx: 1200 });
    // a lane per process, then one per electrode for what runs inside its spans
    expect(view.lanes.map((l) => l.id)).toEqual(['service:1', 'engine:1', ...detail.report!.dataset.electrodes.map((_, e) => `engine:1/electrode ${e}`)]);
    // each electrode lane named as Results and Data name the electrode, its index beside the name
    expect(view.lanes.slice(2).map((l) => [l.name, l.electrode])).toEqual(
      detail.report!.dataset.electrodes.map((e, index) => [`${view.lanes[1]!.name} · ${e.name}`, { index, name: e.name }]),
    );
    expect(view.spans.some((s) => s.name === 'strategy' && s.args?.strategy === 'compensated')).toBe(true);
    const counters = await service.getCounters(runId);
    expect(counters.map((c) => `${c.name}/${c.key}`)).toContain('engine memory (MB)/rss');

    const ll = await service.getLikelihood(runId, 'compensated');
    expect([ll.nTime, ll.nBins]).toEqual([detail.report!.dataset.nTime, detail.report!.dataset.nBins]);
    expect(ll.strategies).toEqual(['compensated', 'reference']);
    expect(ll.truePosition).toHaveLength(ll.rows);

    const trace = await service.exportRun(runId, 'trace');
    expect(trace.fileName).toBe(`kde-profiler-${runId}.trace.json.gz`);
    const names = parseTrace(Buffer.from(trace.base64!, 'base64')).traceEvents.map((e) => e.name);
    expect(names).toContain('backend-init');
    const md = await service.exportRun(runId, 'md');
    expect(Buffer.from(md.base64!, 'base64').toString()).toMatch(/compensated/);

    const cmp = await service.compareRuns(runId, runId, 10);
    expect(cmp.regressed).toBe(false);
  });

  it('spreads electrodes over engine workers with a lane group each, and saves the same likelihood bit for bit', async () => {
    // a runs folder of its own: the other tests count the runs in the shared one
    const ownDir = await mkdtemp(join(tmpdir(), 'kde-svc-pool-'));
    const pooled = createProfilerService({ runsDir: ownDir });
    const saved: Buffer[] = [];
    for (const workers of [1, 2]) {
      const { runId } = await pooled.startRun(config('tiny', ['reference'], { saveLikelihood: true, workers }));
      expect((await pooled.whenFinished(runId)).status).toBe('completed');
      const detail = await pooled.getRun(runId);
      expect(detail.report!.workers).toBe(workers);
      const lanes = (await pooled.getTimeline(runId, { startUs: 0, endUs: 60e6, widthPx: 1200 })).lanes.map((l) => l.id);
      if (workers === 2) {
        expect(lanes).toEqual(expect.arrayContaining(['engine:2', 'engine:3']));
        expect(lanes.some((l) => l.startsWith('engine:2/electrode'))).toBe(true);
        expect(lanes.some((l) => l.startsWith('engine:3/electrode'))).toBe(true);
      } else {
        expect(lanes.some((l) => l.startsWith('engine:2'))).toBe(false);
      }
      saved.push(await readFile(join(ownDir, runId, detail.report!.strategies[0]!.likelihoodFile!)));
    }
    await pooled.close();
    await rm(ownDir, { recursive: true, force: true });
    expect(saved[1]!.equals(saved[0]!)).toBe(true);
  }, 60_000);

  // how soon a cancel lands is measured in bench/service.ts
  it('cancels a running run and keeps a parseable partial trace', async () => {
    const { runId } = await service.startRun(config('medium', ['reference', 'logsumexp', 'chunked'], { repeats: 5 }));
    await engineBusy(runId);
    await service.cancelRun(runId);
    const entry = await service.whenFinished(runId);
    expect(entry.status).toBe('cancelled');
    const trace = parseTrace(await readFile(join(dir, runId, 'trace.json.gz')));
    expect(trace.traceEvents.some((e) => e.ph === 'X' && e.name === 'cold')).toBe(true);
    // a strategy whose first calls ended before the cancel is kept in a report marked cancelled; it may be none
    const report = (await service.getRun(runId)).report;
    if (report) expect([report.status, report.strategies.length > 0]).toEqual(['cancelled', true]);
  });

  it('keeps the strategies measured before a cancel in a report marked cancelled', async () => {
    const { runId } = await service.startRun(config('tiny', ['compensated', 'logsumexp'], { repeats: 40 }));
    // two rounds of repeats have ended (the repeats take turns): the host has both strategies' rows
    await whenSpansRecorded(service, runId, 'repeat', 4);
    await service.cancelRun(runId);
    expect((await service.whenFinished(runId)).status).toBe('cancelled');
    const report = (await service.getRun(runId)).report!;
    expect(report.status).toBe('cancelled');
    expect(report.strategies.map((s) => [s.strategy, s.status])).toEqual([['compensated', 'ok'], ['logsumexp', 'ok']]);
    // rows are handed over after whole rounds: each has the same repeats, at least the two seen, fewer than asked
    const [a, b] = report.strategies.map((s) => s.total!.n);
    expect(a).toBe(b);
    expect(a).toBeGreaterThanOrEqual(2);
    expect(a).toBeLessThan(40);
  }, 60_000);

  it('marks a run failed with a reason when its engine is killed, and keeps what it recorded', async () => {
    const { runId } = await service.startRun(config('medium', ['reference', 'logsumexp'], { repeats: 5 }));
    await engineBusy(runId);
    const status = JSON.parse(await readFile(join(dir, runId, 'status.json'), 'utf8')) as { enginePid: number };
    process.kill(status.enginePid, 'SIGKILL');
    const entry = await service.whenFinished(runId);
    expect(entry.status).toBe('failed');
    expect(entry.error!.message).toMatch(/killed \(SIGKILL\)/);
    const { records } = await readNdjsonRecords(join(dir, runId, 'events.ndjson'));
    expect(records.some((r) => r.proc === 'engine' && r.ph === 'X')).toBe(true);
    const exported = await service.exportRun(runId, 'trace-json');
    expect(JSON.parse(Buffer.from(exported.base64!, 'base64').toString()).traceEvents.length).toBeGreaterThan(0);
  });

  it('keeps its index across a new service instance and lists an interrupted run as failed', async () => {
    const orphan = newRunId();
    await mkdir(join(dir, orphan));
    await writeFile(join(dir, orphan, 'config.json'), JSON.stringify(config('tiny', ['reference'])));
    await writeFile(join(dir, orphan, 'status.json'), JSON.stringify({
      id: orphan, status: 'running', createdAt: new Date().toISOString(), dataset: 'preset:tiny', backend: 'wasm',
      strategies: ['reference'], headline: [], ownerPid: 2 ** 30,
    }));
    const fresh = createProfilerService({ runsDir: dir });
    const runs = await fresh.listRuns();
    expect(runs).toHaveLength(5);
    expect(runs.filter((r) => r.status === 'completed')).toHaveLength(1);
    const interrupted = runs.find((r) => r.id === orphan)!;
    expect(interrupted.status).toBe('failed');
    expect(interrupted.error!.message).toMatch(/interrupted/);
  });

  it('answers the questions asked before a run: presets, data inspection, memory estimates', async () => {
    const presets = await service.listPresets();
    expect(presets.map((p) => p.name)).toEqual(['tiny', 'small', 'medium', 'large', 'realistic', 'place']);
    const inspection = await service.inspectData({ kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 });
    expect(inspection.summary!.nElectrodes).toBe(4);
    const { strategies: estimates } = await service.estimateMemory(config('medium', ['reference', 'logsumexp', 'auto']));
    expect(estimates.map((e) => e.strategy).slice(0, 2)).toEqual(['reference', 'logsumexp']);
    // logsumexp materializes B·E·P, the reference only E·P-sized kernels
    expect(estimates[1]!.peakBytes).toBeGreaterThan(10 * estimates[0]!.peakBytes);
    expect(estimates[1]!.formula).toMatch(/B·E·P/);
  });

  it('rejects bad arguments at runtime', async () => {
    await expect(service.getRun('../../etc')).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(service.getTimeline(newRunId(), { startUs: 0, endUs: Number.NaN, widthPx: 100 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(service.getLikelihood(newRunId(), '../x')).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(service.exportRun(newRunId(), 'pdf' as never)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(service.getRun(newRunId())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.compareRuns(newRunId(), newRunId(), Number.POSITIVE_INFINITY)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(service.startRun({ data: { kind: 'preset', name: 'tiny' }, repeats: -1 } as unknown as RunConfig)).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
    });
    await expect(service.startRun({ data: { kind: 'file', path: join(dir, 'nope.npz') } } as RunConfig)).rejects.toMatchObject({
      code: 'NOT_FOUND', message: expect.stringContaining('nope.npz'),
    });
    expect(() => service.subscribe('nope', () => undefined)).toThrow(/run id/);
  });
});

describe('closing the service', () => {
  // a CLI command that refuses its input at once closes the service straight away; the runs
  // folder must be complete by then, or removing it races the index write (ENOTEMPTY)
  it('waits for the runs folder it started to set up', async () => {
    const runsDir = join(dir, 'closed-at-once');
    const early = createProfilerService({ runsDir });
    await expect(early.startRun({ ...config('tiny', ['reference']), data: { kind: 'file', path: join(dir, 'absent.npz') } })).rejects.toThrow(/absent\.npz/);
    await early.close();
    const listing = JSON.parse(await readFile(join(runsDir, 'index.json'), 'utf8')) as { runs: unknown[] };
    expect(listing.runs).toEqual([]);
    expect(await readdir(runsDir)).toEqual(['index.json']);
  });
});
