/**
 * Merging shard runs made by the real engine: three shards of preset:small, split round-robin and
 * by spikes, each merged run equal to the unsharded run's likelihood; a missing, duplicated or
 * mismatched shard refused with its name; the merged trace a process per shard on one clock.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunConfig, ShardSplit } from '../../shared/config';
import type { TraceRecord } from '../../shared/events';
import type { Report } from '../../shared/report';
import { parseNpy } from '../data';
import { readNdjsonRecords, validateReport } from '../export';
import { MERGE_SUMMARY_FILE } from '../engineProtocol';
import { mergeShardRuns, type MergeSummary } from './mergeRuns';
import { createProfilerService, type ProfilerService } from '../service';

// CI names a copy outside ../shared (the checker installs its dependencies next to itself)
const TRACE_CHECK = process.env.KDE_PROFILER_TRACE_CHECK ??
  fileURLToPath(new URL('../../../../shared/tools/trace-check/check.sh', import.meta.url));
const STRATEGIES = ['reference', 'compensated'] as const;

let dir: string;
let runsDir: string;
let service: ProfilerService;
let whole: string;
const shards: Record<ShardSplit, string[]> = { 'round-robin': [], spikes: [] };

function config(extra: Partial<RunConfig> = {}): RunConfig {
  return {
    data: { kind: 'preset', name: 'small', seed: 11, features: 2, featureScale: 1 }, backend: 'wasm', strategies: [...STRATEGIES],
    repeats: 2, warmup: 0, local: true, saveLikelihood: true, trace: true, workers: 1, kernelProfile: false, ...extra,
  };
}

async function completedRun(c: RunConfig): Promise<string> {
  const { runId } = await service.startRun(c);
  const entry = await service.whenFinished(runId);
  if (entry.status !== 'completed') throw new Error(`run ${runId} ${entry.status}: ${entry.error?.message}`);
  return runId;
}

async function likelihood(runDir: string, name: string): Promise<Float64Array> {
  return parseNpy(new Uint8Array(await readFile(join(runDir, 'likelihood', `${name}.npy`)))).data as Float64Array;
}

/** the largest |merged − unsharded| over the largest |unsharded|: float32 files, summed in another order */
function relativeDifference(merged: Float64Array, unsharded: Float64Array): number {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < unsharded.length; i++) {
    diff = Math.max(diff, Math.abs(merged[i]! - unsharded[i]!));
    scale = Math.max(scale, Math.abs(unsharded[i]!));
  }
  return diff / scale;
}

async function mergeError(sources: string[]): Promise<string> {
  try {
    await mergeShardRuns({ sources, runsDir });
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the merge was expected to fail');
}

/** A copy of a shard's run folder under `name`, its report changed by `edit`. */
async function editedCopy(runId: string, name: string, edit: (r: Report) => void): Promise<string> {
  const copy = join(dir, name);
  await cp(join(runsDir, runId), copy, { recursive: true });
  const report = JSON.parse(await readFile(join(copy, 'report.json'), 'utf8')) as Report;
  edit(report);
  await writeFile(join(copy, 'report.json'), JSON.stringify(report));
  return copy;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'merge-runs-'));
  runsDir = join(dir, 'runs');
  service = createProfilerService({ runsDir });
  whole = await completedRun(config());
  for (const by of ['round-robin', 'spikes'] as ShardSplit[]) {
    for (let index = 0; index < 3; index++) shards[by].push(await completedRun(config({ shard: { index, count: 3, by } })));
  }
}, 300_000);
afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

describe('shard runs', () => {
  it('each reports its shard and the whole dataset\'s fingerprint', async () => {
    const unsharded = (await service.getRun(whole)).report!;
    expect(unsharded.fingerprint).toMatch(/^sha256:/);
    expect(unsharded.shard).toBeUndefined();
    const names: string[] = [];
    for (const [index, id] of shards['round-robin'].entries()) {
      const report = (await service.getRun(id)).report!;
      expect(validateReport(report)).toEqual({ ok: true, errors: [] });
      expect(report.shard).toMatchObject({ index, count: 3, by: 'round-robin' });
      expect(report.fingerprint).toBe(unsharded.fingerprint);
      expect(report.dataset.electrodes.map((e) => e.name)).toEqual(report.shard!.electrodes);
      names.push(...report.shard!.electrodes);
    }
    expect(names.sort()).toEqual(unsharded.dataset.electrodes.map((e) => e.name).sort());
  });
});

describe('merge', () => {
  for (const by of ['round-robin', 'spikes'] as ShardSplit[]) {
    it(`${by}: the merged likelihood equals the unsharded run's, and the run is listed like any other`, async () => {
      // given out of order and by folder: the sum still goes in shard index order
      const sources = [shards[by][2]!, join(runsDir, shards[by][0]!), shards[by][1]!];
      const result = await mergeShardRuns({ sources, runsDir, outDir: join(dir, `out-${by}`) });
      expect(result.schemaProblems).toEqual([]);
      for (const name of [...STRATEGIES, 'local']) {
        const merged = await likelihood(result.runDir, name);
        const unsharded = await likelihood(join(runsDir, whole), name);
        expect(merged).toHaveLength(unsharded.length);
        expect(relativeDifference(merged, unsharded)).toBeLessThan(1e-5);
        expect(await likelihood(join(dir, `out-${by}`), name)).toEqual(merged);
      }
      const unshardedReport = (await service.getRun(whole)).report!;
      const report = result.report;
      expect(report.fingerprint).toBe(unshardedReport.fingerprint);
      expect(report.shard).toBeUndefined();
      expect(report.dataset.nElectrodes).toBe(8);
      expect(report.dataset.nEncodingSpikes).toBe(unshardedReport.dataset.nEncodingSpikes);
      if (by === 'round-robin') expect(report.dataset.electrodes).toEqual(unshardedReport.dataset.electrodes);
      expect(report.strategies.map((s) => [s.strategy, s.status, s.resolved.length])).toEqual([['reference', 'ok', 8], ['compensated', 'ok', 8]]);
      expect(report.strategies[1]!.agreementWithReference!.allclose).toBe(true);
      // every electrode's time, indexed in the whole dataset (a shard's spans count its own from 0)
      const perElectrode = report.strategies[0]!.stages.find((st) => st.byElectrode)!.byElectrode!;
      expect(perElectrode.map((t) => t.electrode)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(report.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['shard-critical-path', 'shard-cpu-time', 'shard-time']));

      const summary = JSON.parse(await readFile(join(result.runDir, MERGE_SUMMARY_FILE), 'utf8')) as MergeSummary;
      expect(summary.shards.map((s) => s.runId)).toEqual(shards[by]);
      const walls = summary.shards.map((s) => s.wallMs!);
      expect(summary.criticalPath!.wallMs).toBe(Math.max(...walls));
      expect(summary.totalCpuMs).toBeGreaterThan(0);
      expect(summary.shards.every((s) => s.clock === 'wall clock mark')).toBe(true);

      const listed = await service.listRuns();
      const entry = listed.find((r) => r.id === result.runId);
      expect(entry).toMatchObject({ status: 'completed', label: 'merge of 3 shards', strategies: [...STRATEGIES] });
      const detail = await service.getRun(result.runId);
      expect(detail.report!.runId).toBe(result.runId);
      expect((await service.getLikelihood(result.runId, 'compensated')).nTime).toBe(unshardedReport.dataset.nTime);
      const timeline = await service.getTimeline(result.runId, { startUs: 0, endUs: 1e12, widthPx: 800 });
      expect(timeline.lanes.some((l) => l.name.includes('shard 2/3'))).toBe(true);
    }, 120_000);
  }

  it('refuses a missing shard, naming it', async () => {
    const [a, b] = shards['round-robin'];
    expect(await mergeError([a!, b!])).toMatch(/^shard 2\/3 is missing \(given: 0, 1 of 3\)/);
  });

  it('refuses a shard given twice, naming it and both runs', async () => {
    const copy = await editedCopy(shards['round-robin'][1]!, 'again', () => undefined);
    const message = await mergeError([...shards['round-robin'], copy]);
    expect(message).toMatch(/^shard 1\/3 is given 2 times/);
    expect(message).toContain(shards['round-robin'][1]!);
  });

  it('refuses a shard of other data, naming it', async () => {
    const odd = await editedCopy(shards['round-robin'][2]!, 'other-data', (r) => {
      r.fingerprint = `sha256:${'0'.repeat(64)}`;
    });
    const message = await mergeError([shards['round-robin'][0]!, shards['round-robin'][1]!, odd]);
    expect(message).toMatch(new RegExp(`^shard 2/3 \\(run ${shards['round-robin'][2]}\\) has dataset fingerprint sha256:000000000000…`));
  });

  it('refuses a shard run with another configuration or split, naming it', async () => {
    const odd = await editedCopy(shards['round-robin'][0]!, 'other-backend', (r) => {
      r.config.backend = 'cpu';
    });
    const config = await mergeError([odd, shards['round-robin'][1]!, shards['round-robin'][2]!]);
    expect(config).toMatch(/ran with backend "(wasm|cpu)", shard 0\/3 .* with "(cpu|wasm)"/);
    const split = await mergeError([shards['round-robin'][0]!, shards['round-robin'][1]!, shards.spikes[2]!]);
    expect(split).toMatch(new RegExp(`^shard 2/3 \\(run ${shards.spikes[2]}\\) split the electrodes by spikes, the others by round-robin`));
  });

  it('refuses a run that is not a shard', async () => {
    expect(await mergeError([whole])).toMatch(new RegExp(`run ${whole} .* is not a shard`));
  });

  it('refuses a folder holding the shards of two sharded runs, naming a shard that does not fit', async () => {
    // the runs folder holds both splits of one dataset (one fingerprint, two splits), the unsharded run and merges, which are no shards
    expect(await mergeError([runsDir])).toMatch(/^shard \d\/3 \(run [-0-9a-f]+\) split the electrodes by (spikes|round-robin), the others by (round-robin|spikes)/);
  });

  it('writes one trace with a process per shard on a common clock, which trace-check accepts', async () => {
    const merged = await mergeShardRuns({ sources: shards.spikes, runsDir });
    const tracePath = join(merged.runDir, 'trace.json.gz');
    const trace = JSON.parse(gunzipSync(await readFile(tracePath)).toString('utf8')) as { traceEvents: { ph: string; name: string; pid: number; ts?: number; dur?: number; args?: { name?: string } }[] };
    const processes = trace.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name');
    expect(processes.map((p) => p.pid)).toEqual([1, 2, 3]);
    expect(processes.map((p) => p.args!.name)).toEqual(shards.spikes.map((id, i) => expect.stringMatching(new RegExp(`^shard ${i}/3 .*run ${id}$`))));
    expect(trace.traceEvents.every((e) => e.ts === undefined || e.ts >= 0)).toBe(true);
    // each shard's engine ran its own "run" span; all three lie on the one time line
    const runs = trace.traceEvents.filter((e) => e.ph === 'X' && e.name === 'run').sort((a, b) => a.pid - b.pid);
    expect(runs.map((e) => e.pid)).toEqual([1, 2, 3]);
    // the shards ran one after another here: on the common clock each starts after the one before ended
    for (let i = 1; i < runs.length; i++) expect(runs[i]!.ts!).toBeGreaterThan(runs[i - 1]!.ts! + runs[i - 1]!.dur!);

    const events: TraceRecord[] = (await readNdjsonRecords(join(merged.runDir, 'events.ndjson'))).records;
    expect(events.filter((r) => r.ph === 'X' && r.name === 'run')).toHaveLength(3);

    if (!(await stat(TRACE_CHECK).catch(() => null))) {
      console.warn(`trace-check not found at ${TRACE_CHECK}: the merged trace was not validated by it`);
      return;
    }
    const check = await new Promise<{ code: number; out: string }>((done) => {
      execFile('bash', [TRACE_CHECK, '--strict', tracePath], { timeout: 120_000 }, (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }));
    });
    expect(check.out).toMatch(/PASS|valid/i);
    expect(check.code, check.out).toBe(0);
  }, 180_000);
});
