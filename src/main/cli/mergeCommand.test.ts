/**
 * Sharded runs from the command line: `decode --shard I/N` and `run --shard I/N` as SLURM array
 * tasks would call them, `merge` of their runs into one run listed by `list`, and the refusals a
 * user meets (a missing shard, a shard index out of range).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report';
import { parseNpy } from '../data';
import { runCliCaptured } from './testing';

let dir: string;
let runsDir: string;

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCliCaptured(dir, args);
}

function runIdIn(text: string): string {
  const m = /run (\d{8}-\d{6}-[0-9a-f]{6})/.exec(text);
  if (!m) throw new Error(`no run id in: ${text}`);
  return m[1]!;
}

async function npy(path: string): Promise<Float64Array> {
  return parseNpy(new Uint8Array(await readFile(path))).data as Float64Array;
}

const DECODE = ['decode', '--data', 'preset:tiny', '--strategy', 'compensated', '--rows-per-chunk', '20', '--workers', '1', '--runs-dir', 'runs'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-merge-cli-'));
  runsDir = join(dir, 'runs');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('kde-profiler merge', () => {
  it('merges decode shards into one listed run whose likelihood is the unsharded decode\'s', async () => {
    const whole = await cli(...DECODE, '--out', 'whole');
    expect(whole.code, whole.stderr).toBe(0);
    const ids: string[] = [];
    for (const shard of ['1/2', '0/2']) {
      const r = await cli(...DECODE, '--shard', shard, '--shard-by', 'spikes', '--out', `shard-${shard[0]}`);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`shard ${shard} \\(spikes\\): electrodes e\\d`));
      expect(r.stdout).toMatch(/dataset fingerprint: sha256:[0-9a-f]{64}/);
      ids.push(runIdIn(r.stderr));
    }
    const merged = await cli('merge', ...ids, '--out', 'merged', '--runs-dir', 'runs');
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/2 shards split by spikes, dataset sha256:/);
    expect(merged.stdout).toMatch(/critical path: shard [01]\/2/);
    const merged0 = await npy(join(dir, 'merged', 'likelihood', 'compensated.npy'));
    const unsharded = await npy(join(dir, 'whole', 'likelihood', 'compensated.npy'));
    let diff = 0;
    let scale = 0;
    unsharded.forEach((v, i) => {
      diff = Math.max(diff, Math.abs(merged0[i]! - v));
      scale = Math.max(scale, Math.abs(v));
    });
    expect(diff / scale).toBeLessThan(1e-5);
    const report = JSON.parse(await readFile(join(dir, 'merged', 'report.json'), 'utf8')) as Report;
    expect(report.dataset.nElectrodes).toBe(4);
    expect(report.config.shard).toBeUndefined();

    const mergedId = runIdIn(merged.stderr);
    const list = await cli('list', '--runs-dir', 'runs', '--json');
    const entry = (JSON.parse(list.stdout) as { id: string; status: string; label?: string }[]).find((r) => r.id === mergedId);
    expect(entry).toMatchObject({ status: 'completed', label: 'merge of 2 shards: decode compensated, 20 rows per window' });
  }, 180_000);

  it('says which shard is missing, with exit code 2', async () => {
    const r = await cli('run', '--data', 'preset:tiny', '--strategy', 'reference', '--repeats', '1', '--save-likelihood', '--workers', '1',
      '--shard', '0/3', '--runs-dir', 'runs', '--no-kernel-profile');
    expect(r.code, r.stderr).toBe(0);
    const merged = await cli('merge', runIdIn(r.stderr), '--out', 'nope', '--runs-dir', 'runs');
    expect(merged.code).toBe(2);
    expect(merged.stderr).toMatch(/kde-profiler merge: shards 1\/3, 2\/3 are missing \(given: 0 of 3\)/);
  }, 120_000);

  it('refuses a shard index out of range and merge without --out, naming the flag', async () => {
    const r = await cli(...DECODE, '--shard', '2/2', '--out', 'x');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--shard/);
    const m = await cli('merge', runsDir);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/--out DIR is required/);
  });
});
