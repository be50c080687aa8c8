import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunConfig } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import type { SweepRun } from '../../../shared/sweep';
import { loadNpz, makePreset, writeClusterlessNpz } from '../../data';
import { createProfilerService } from '../profilerService';
import { okResult, report } from '../../analysis/testData';
import { createSweepFolder, listSweeps, readSweep, saveSweep, sweepCsv, sweepDir, sweepResultOf, SWEEP_FILES, writeSweepData, type SweepPlan } from './sweeps';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-sweeps-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const CONFIG: RunConfig = {
  data: { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 }, backend: 'wasm', strategies: ['reference', 'compensated'],
  repeats: 2, warmup: 0, local: false, saveLikelihood: false, trace: true,
};

function plan(id: string, createdAt: string): SweepPlan {
  return { id, createdAt, vary: 'encoding-spikes', values: [20, 40], data: 'preset:tiny', config: CONFIG, notes: ['made in a test'] };
}

const RUNS: SweepRun[] = [
  { value: 20, runId: '20260101-000001-aaaaaa', status: 'completed', dataPath: '/x/tiny.encoding-spikes-20.npz' },
  { value: 40, runId: null, status: 'pending', dataPath: '/x/tiny.encoding-spikes-40.npz' },
];

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe('sweeps on disk', () => {
  it('saves sweep.json and sweep.csv, reads the sweep back and lists it, newest first', async () => {
    const runsDir = join(dir, 'store');
    const older = sweepResultOf(plan('20260101-000000-aaaaaa', '2026-01-01T00:00:00.000Z'), RUNS, [null, null], 'running');
    const newer = sweepResultOf({ ...plan('20260102-000000-bbbbbb', '2026-01-02T00:00:00.000Z'), label: 'mine' }, RUNS, [null, null], 'completed');
    for (const s of [older, newer]) {
      await createSweepFolder(runsDir, s.id);
      await saveSweep(runsDir, s);
    }
    expect(await readSweep(runsDir, newer.id)).toEqual(newer);
    expect(newer.runIds).toEqual(['20260101-000001-aaaaaa', null]);
    const csv = await readFile(join(sweepDir(runsDir, newer.id), SWEEP_FILES.csv), 'utf8');
    expect(csv.split('\n')[0]).toBe('vary,value,run_id,strategy,metric,statistic,ms,ci95_lo_ms,ci95_hi_ms,n,loglog_slope,slope_r2,fastest,fastest_beyond_noise,fixed_cost_dominates');
    const list = await listSweeps(runsDir);
    expect(list.map((s) => [s.id, s.status, s.label])).toEqual([[newer.id, 'completed', 'mine'], [older.id, 'running', undefined]]);
    expect(list[0]).toMatchObject({ vary: 'encoding-spikes', values: [20, 40], data: 'preset:tiny', crossovers: 0 });
  });

  it('writes one CSV row per value, strategy and metric, with the interval, the slope and who is fastest', () => {
    const reports = [20, 40].map((v) => report([okResult('reference', v), okResult('compensated', 2 * v)]));
    const s = sweepResultOf(plan('20260101-000000-aaaaaa', '2026-01-01T00:00:00.000Z'), RUNS, reports, 'completed');
    const rows = sweepCsv(s).trim().split('\n').slice(1).map((r) => r.split(','));
    const first = rows.find((r) => r[1] === '20' && r[3] === 'reference' && r[4] === 'total')!;
    expect(first.slice(0, 7)).toEqual(['encoding-spikes', '20', '20260101-000001-aaaaaa', 'reference', 'total', 'median', '20']);
    // three equal samples: an interval of zero width, a slope of 1 (a scaling law), fastest beyond the noise
    expect(first.slice(7)).toEqual(['20', '20', '3', '1', '', 'true', 'true', 'false']);
    expect(rows.find((r) => r[1] === '40' && r[3] === 'compensated')![2]).toBe('');
  });

  it('warns when runs were measured on a busy machine, naming their values', () => {
    const busy = { loadAverageStart: [5], loadAverageEnd: [5], busy: true };
    const report = (isBusy: boolean) => ({ environment: { load: isBusy ? busy : { ...busy, busy: false } }, strategies: [] }) as never;
    const s = sweepResultOf(plan('20260101-000000-aaaaaa', '2026-01-01T00:00:00.000Z'), RUNS, [report(false), report(true)], 'completed');
    expect(s.warnings).toEqual(['1 of 2 runs (encoding-spikes 40) were measured while the machine was busy; their times and the crossovers may move on a quiet machine.']);
    expect(sweepResultOf(plan('20260101-000000-aaaaaa', '2026-01-01T00:00:00.000Z'), RUNS, [report(false), null], 'completed').warnings).toEqual([]);
  });

  it('refuses an id that is not a sweep id, says NOT_FOUND for a missing one and IO for a file that is not a sweep', async () => {
    const runsDir = join(dir, 'errors');
    expect(await listSweeps(runsDir)).toEqual([]);
    expect((await errorOf(readSweep(runsDir, '../../etc'))).code).toBe('BAD_ARGUMENT');
    const missing = await errorOf(readSweep(runsDir, '20260101-000000-cccccc'));
    expect(missing.code).toBe('NOT_FOUND');
    expect(missing.message).toContain(join(runsDir, 'sweeps'));
    const broken = '20260101-000000-dddddd';
    await mkdir(sweepDir(runsDir, broken), { recursive: true });
    await writeFile(join(sweepDir(runsDir, broken), SWEEP_FILES.json), '{"format": "something else"}');
    const bad = await errorOf(readSweep(runsDir, broken));
    expect(bad.code).toBe('IO');
    expect(bad.message).toMatch(/is not a sweep this version reads/);
    await writeFile(join(sweepDir(runsDir, broken), SWEEP_FILES.json), '{ not json');
    expect((await errorOf(readSweep(runsDir, broken))).code).toBe('IO');
    // a folder of another kind, and a broken sweep, stay out of the list
    await mkdir(join(runsDir, 'sweeps', 'notes'), { recursive: true });
    expect(await listSweeps(runsDir)).toEqual([]);
  });

  it('are listed and returned by the service, beside its runs and not among them', async () => {
    const runsDir = join(dir, 'service');
    const s = sweepResultOf(plan('20260103-000000-eeeeee', '2026-01-03T00:00:00.000Z'), RUNS, [null, null], 'completed');
    await createSweepFolder(runsDir, s.id);
    await saveSweep(runsDir, s);
    const service = createProfilerService({ runsDir });
    try {
      expect((await service.listSweeps()).map((x) => x.id)).toEqual([s.id]);
      expect(await service.getSweep(s.id)).toEqual(s);
      expect(await service.listRuns()).toEqual([]);
      expect((await errorOf(service.getSweep('x'))).code).toBe('BAD_ARGUMENT');
    } finally {
      await service.close();
    }
  });
});

const meanEncoding = (d: Dataset): number => d.electrodes.reduce((s, e) => s + e.encodingSpikeTimes.length, 0) / d.electrodes.length;

describe('writeSweepData', () => {
  let file: string;
  let original: Dataset;
  beforeAll(async () => {
    original = makePreset('small', { seed: 4, features: 4 });
    file = join(dir, 'session.npz');
    await writeClusterlessNpz(original, file);
  });

  async function written(vary: Parameters<typeof writeSweepData>[0]['vary'], values: number[], name: string): Promise<Dataset[]> {
    const out = join(dir, name);
    await mkdir(out, { recursive: true });
    const files = await writeSweepData({ source: { kind: 'file', path: file }, vary, values, dir: out, runsDir: dir });
    expect(files.map((f) => f.value)).toEqual(values);
    expect(files[0]!.path).toBe(join(out, `session.${vary}-${values[0]}.npz`));
    return Promise.all(files.map((f) => loadNpz(f.path)));
  }

  it('subsamples a file\'s encoding spikes per electrode to the asked mean, nested, decoding spikes untouched', async () => {
    const [a, b] = await written('encoding-spikes', [10, 25], 'enc');
    expect(meanEncoding(a!)).toBeCloseTo(10, 0);
    expect(meanEncoding(b!)).toBeCloseTo(25, 0);
    a!.electrodes.forEach((e, i) => {
      const larger = new Set(b!.electrodes[i]!.encodingSpikeTimes);
      for (const t of e.encodingSpikeTimes) expect(larger.has(t)).toBe(true);
      expect(e.decodingSpikeTimes).toEqual(original.electrodes[i]!.decodingSpikeTimes);
      // each kept spike keeps its own marks
      const j = original.electrodes[i]!.encodingSpikeTimes.indexOf(e.encodingSpikeTimes[0]!);
      expect(Array.from(e.encodingFeatures.subarray(0, 4))).toEqual(Array.from(original.electrodes[i]!.encodingFeatures.subarray(j * 4, j * 4 + 4)));
    });
    expect(a!.expected).toBeUndefined();
  });

  it('takes a file\'s first features and first electrodes, and rebuilds its 1-D grid with other bins', async () => {
    const [two] = await written('features', [2, 3], 'features');
    expect(two!.electrodes[0]!.nFeatures).toBe(2);
    const e0 = original.electrodes[0]!;
    expect(Array.from(two!.electrodes[0]!.encodingFeatures.subarray(0, 4))).toEqual([e0.encodingFeatures[0], e0.encodingFeatures[1], e0.encodingFeatures[4], e0.encodingFeatures[5]]);
    const [three] = await written('electrodes', [3, 5], 'electrodes');
    expect(three!.electrodes.map((e) => e.name)).toEqual(original.electrodes.slice(0, 3).map((e) => e.name));
    const [forty] = await written('bins', [40, 80], 'bins');
    expect(forty!.placeBinCenters.length).toBe(40);
    expect(forty!.params.placeBinSize).toBeCloseTo(100 / 40, 12);
  });

  it('refuses to grow a file, naming the file and its size, and writes nothing', async () => {
    const out = join(dir, 'too-many');
    await mkdir(out, { recursive: true });
    const mean = Math.floor(meanEncoding(original));
    const e = await errorOf(writeSweepData({ source: { kind: 'file', path: file }, vary: 'encoding-spikes', values: [10, mean + 1], dir: out, runsDir: dir }));
    expect(e.code).toBe('BAD_ARGUMENT');
    expect(e.message).toContain(`encoding-spikes=${mean + 1}: ${file} has ${mean} encoding spikes per electrode (mean)`);
    expect(await readdir(out)).toEqual([]);
    const f = await errorOf(writeSweepData({ source: { kind: 'file', path: file }, vary: 'features', values: [2, 5], dir: out, runsDir: dir }));
    expect(f.message).toContain('has 4 mark features (D)');
  });

  it('subsamples decoding spikes the same way, on a file and on the place preset (whose decoded window is fixed)', async () => {
    const [five] = await written('decoding-spikes', [5, 10], 'dec');
    const meanDecoding = (d: Dataset): number => d.electrodes.reduce((s, e) => s + e.decodingSpikeTimes.length, 0) / d.electrodes.length;
    expect(meanDecoding(five!)).toBeCloseTo(5, 0);
    five!.electrodes.forEach((e, i) => expect(e.encodingSpikeTimes).toEqual(original.electrodes[i]!.encodingSpikeTimes));
    const out = join(dir, 'place-dec');
    await mkdir(out, { recursive: true });
    const source = { kind: 'preset', name: 'place', seed: 42, features: 2, featureScale: 1 } as const;
    const files = await writeSweepData({ source, vary: 'decoding-spikes', values: [20, 40], dir: out, runsDir: dir });
    expect(meanDecoding(await loadNpz(files[0]!.path))).toBeCloseTo(20, 0);
  });

  it('refuses to rebuild the grid of 2-D positions with other bins, saying what can be varied instead', async () => {
    const twoD = (v: Float64Array): Float64Array => Float64Array.from({ length: v.length * 2 }, (_, k) => v[k >> 1]! * (k % 2 === 0 ? 1 : 0.5));
    const flat = makePreset('tiny', { seed: 1 });
    const plane: Dataset = {
      ...flat, positionDims: 2, position: twoD(flat.position), decodingPosition: twoD(flat.decodingPosition!), placeBinCenters: twoD(flat.placeBinCenters),
    };
    const path = join(dir, 'plane.npz');
    await writeClusterlessNpz(plane, path);
    const out = join(dir, 'plane-bins');
    await mkdir(out, { recursive: true });
    const e = await errorOf(writeSweepData({ source: { kind: 'file', path }, vary: 'bins', values: [10, 20], dir: out, runsDir: dir }));
    expect(e.code).toBe('BAD_ARGUMENT');
    expect(e.message).toBe(
      `--vary bins: ${path} has 2-D positions, and only a 1-D place grid can be rebuilt with another number of bins; vary encoding-spikes, decoding-spikes, features or electrodes instead.`,
    );
  });

  it('generates a preset at each value, the same every time', async () => {
    const out = join(dir, 'preset');
    await mkdir(out, { recursive: true });
    const source = { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 } as const;
    const files = await writeSweepData({ source, vary: 'encoding-spikes', values: [200, 400], dir: out, runsDir: dir });
    const [a, b] = await Promise.all(files.map((f) => loadNpz(f.path)));
    expect(Math.abs(meanEncoding(a!) - 200)).toBeLessThan(4 * Math.sqrt(200 / 4));
    expect(Math.abs(meanEncoding(b!) - 400)).toBeLessThan(4 * Math.sqrt(400 / 4));
    const again = await loadNpz(files[0]!.path);
    expect(again.electrodes).toEqual(a!.electrodes);
    const first = await readFile(files[0]!.path);
    await rm(files[0]!.path);
    await writeSweepData({ source, vary: 'encoding-spikes', values: [200, 400].slice(0, 1).concat(401), dir: out, runsDir: dir });
    expect(await readFile(files[0]!.path)).toEqual(first);
    const features = await writeSweepData({ source, vary: 'features', values: [1, 3], dir: out, runsDir: dir });
    expect((await loadNpz(features[1]!.path)).electrodes[0]!.nFeatures).toBe(3);
    expect((await errorOf(writeSweepData({ source, vary: 'features', values: [2, 33], dir: out, runsDir: dir }))).message).toMatch(/up to 32 features/);
  });
});
