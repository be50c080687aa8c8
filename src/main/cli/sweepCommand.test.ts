/**
 * `kde-profiler sweep` end to end: a small sweep through the service and the engine, its files in
 * the sweeps folder, its runs in the run list under the sweep's label, and the service answering
 * for it; then the refusals a user meets before any run starts.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweepResult } from '../../shared/sweep';
import { createProfilerService } from '../service';
import { UsageError } from './cliTypes';
import { parseVary } from './sweepCommand';
import { runCliCaptured } from './testing';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-sweep-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCliCaptured(dir, args);
}

describe('parseVary', () => {
  it('reads NAME=V1,V2,… into ascending values', () => {
    expect(parseVary('encoding-spikes=400,100, 200')).toEqual({ name: 'encoding-spikes', values: [100, 200, 400] });
    expect(parseVary('features=2,32')).toEqual({ name: 'features', values: [2, 32] });
  });

  it('refuses what is not a sweep, naming the mistake', () => {
    expect(() => parseVary(undefined)).toThrow(/--vary is required/);
    expect(() => parseVary('spikes=1,2')).toThrow(/'spikes' is not a size a sweep varies; choose one of encoding-spikes, decoding-spikes, bins, features, electrodes/);
    expect(() => parseVary('bins=100')).toThrow(/at least two values/);
    expect(() => parseVary('bins=100,1.5')).toThrow(/positive integers, got '1.5'/);
    expect(() => parseVary('bins=0,10')).toThrow(UsageError);
    expect(() => parseVary('bins=10,20,10')).toThrow(/10 is given twice/);
  });
});

describe('kde-profiler sweep', () => {
  it('runs every value as a recorded run and writes sweep.json with the values, runs, strategies and crossovers', async () => {
    const r = await cli(
      'sweep', '--data', 'preset:tiny', '--vary', 'encoding-spikes=20,40', '--strategy', 'reference,compensated', '--repeats', '2', '--warmup', '0',
      '--workers', '1', '--runs-dir', 'runs', '--out', 'out',
    );
    expect(r.code, r.stderr).toBe(0);
    const sweep = JSON.parse(await readFile(join(dir, 'out', 'sweep.json'), 'utf8')) as SweepResult;
    expect(sweep).toMatchObject({ format: 'kde-profiler-sweep/1', status: 'completed', vary: 'encoding-spikes', values: [20, 40], data: 'preset:tiny' });
    expect(sweep.strategies.map((s) => s.strategy)).toEqual(['reference', 'compensated']);
    for (const s of sweep.strategies) {
      const total = s.series.find((x) => x.metric === 'total')!;
      expect(total.points.every((p) => p !== null && p.ms > 0 && p.n === 2 && p.ci95 !== null)).toBe(true);
      expect(total.slope?.points).toBe(2);
    }
    expect(sweep.runIds.every((id) => /^\d{8}-\d{6}-[0-9a-f]{6}$/.test(id ?? ''))).toBe(true);
    expect(sweep.runs.map((x) => x.status)).toEqual(['completed', 'completed']);
    // each run's data had about the asked mean (a Poisson draw around it)
    expect(sweep.runs[1]!.dataset!.meanEncodingSpikes).toBeGreaterThan(sweep.runs[0]!.dataset!.meanEncodingSpikes);
    expect(sweep.fastest.every((f) => f === 'reference' || f === 'compensated')).toBe(true);
    expect(sweep.conclusion).toMatch(/crossover|overtakes/);
    expect(await readFile(join(dir, 'out', 'sweep.csv'), 'utf8')).toMatch(/^vary,value,run_id,strategy,metric/);

    // the printed table: value × strategy, the slopes, the crossovers
    expect(r.stdout).toMatch(/encoding spikes per electrode\s+reference \(total, 95 % CI\)\s+compensated \(total, 95 % CI\)\s+fastest\s+run/);
    expect(r.stdout).toMatch(/\n20\s+\S+ ms ±[\d.]+ %/);
    expect(r.stdout).toMatch(/log-log slopes/);
    expect(r.stdout).toMatch(/\ncrossovers: /);

    // the runs are ordinary runs, labelled with the sweep; the sweep sits beside them
    const service = createProfilerService({ runsDir: join(dir, 'runs') });
    try {
      const runs = await service.listRuns();
      expect(runs.map((x) => x.label).sort()).toEqual([`sweep ${sweep.id} encoding-spikes=20`, `sweep ${sweep.id} encoding-spikes=40`]);
      expect((await service.listSweeps()).map((s) => [s.id, s.strategies])).toEqual([[sweep.id, ['reference', 'compensated']]]);
      expect(await service.getSweep(sweep.id)).toEqual(sweep);
    } finally {
      await service.close();
    }
    expect((await readdir(join(dir, 'runs', 'sweeps', sweep.id, 'data'))).sort()).toEqual(['tiny.encoding-spikes-20.npz', 'tiny.encoding-spikes-40.npz']);
  });

  it('refuses before any run: a feature count over 32, --features with --vary features, a flag of run that does not apply', async () => {
    const many = await cli('sweep', '--data', 'preset:tiny', '--vary', 'features=2,40', '--runs-dir', 'refused');
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(/features=40: a sweep goes up to 32 features/);
    // the sweep whose data could not be made leaves no folder behind
    expect(await readdir(join(dir, 'refused', 'sweeps'))).toEqual([]);
    const both = await cli('sweep', '--data', 'preset:tiny', '--vary', 'features=2,4', '--features', '3', '--runs-dir', 'refused');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--features sets the one feature count/);
    const shard = await cli('sweep', '--data', 'preset:tiny', '--vary', 'bins=10,20', '--shard', '0/2');
    expect(shard.code).toBe(2);
    expect(shard.stderr).toMatch(/unknown flag --shard/);
    const whole = await cli('sweep', '--data', 'preset:tiny', '--vary', 'bins=10,20', '--engine', 'nld:detector', '--runs-dir', 'refused');
    expect(whole.code).toBe(2);
    expect(whole.stderr).toMatch(/--engine nld:detector: a sweep times the likelihood.*kde-profiler run --model detector --engine nld:detector/);
  });
});
