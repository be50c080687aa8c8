/**
 * A sharded run on a real (one-node) SLURM cluster: `kde-profiler slurm --submit` queues a 4-task
 * array of `small` and its dependent merge; the merged likelihood must equal an unsharded run's.
 * Skips, saying why, where the cluster cannot start (no root, no slurm-wlm/munge packages).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSlurmCluster, waitForJobs, type SlurmCluster } from './support/slurmCluster';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'kde-profiler.mjs');
const work = mkdtempSync(join(tmpdir(), 'kde-slurm-'));
const started = startSlurmCluster(join(work, 'cluster'));
const cluster: SlurmCluster | null = 'skip' in started ? null : started;
if (!cluster) console.warn(`SLURM test skipped: ${(started as { skip: string }).skip}`);

afterAll(() => cluster?.stop());

/** float32 .npy (little-endian, C order) → values */
function readNpyFloat32(path: string): Float32Array {
  const bytes = readFileSync(path);
  const headerLen = bytes.readUInt16LE(8);
  const header = bytes.subarray(10, 10 + headerLen).toString('latin1');
  expect(header).toContain("'descr': '<f4'");
  const data = bytes.subarray(10 + headerLen);
  return new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
}

function kde(args: string[], env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(process.execPath, [CLI, ...args], { cwd: work, env, encoding: 'utf8', timeout: 300_000 });
}

describe.skipIf(cluster === null)('kde-profiler slurm on a one-node cluster', () => {
  it('runs 4 shards as an array job, merges them after, and the merged likelihood equals the unsharded one', () => {
    const runFlags = ['--strategy', 'reference', '--repeats', '1', '--warmup', '0', '--no-kernel-profile'];
    const out = join(work, 'job');
    const runs = join(work, 'runs');
    const submitted = kde(['slurm', '--data', 'preset:small', '--shards', '4', '--shard-by', 'spikes', '--cpus-per-task', '1',
      '--out', out, '--runs-dir', runs, '--submit', '--', ...runFlags], cluster!.env);
    const ids = /shards job (\d+).*merge job (\d+)/.exec(submitted);
    expect(ids, submitted).not.toBeNull();
    const states = waitForJobs(cluster!, [ids![1]!, ids![2]!], 240_000);
    const logs = () => readdirSync(join(out, 'logs')).map((f) => `${f}:\n${readFileSync(join(out, 'logs', f), 'utf8')}`).join('\n');
    expect(states, logs()).toEqual({ [ids![1]!]: 'COMPLETED', [ids![2]!]: 'COMPLETED' });

    const merged = readNpyFloat32(join(out, 'merged', 'likelihood', 'reference.npy'));
    const mergedReport = JSON.parse(readFileSync(join(out, 'merged', 'report.json'), 'utf8')) as { status: string; fingerprint?: string };
    expect(mergedReport.status).toBe('completed');

    kde(['run', '--data', 'preset:small', ...runFlags, '--save-likelihood', '--runs-dir', join(work, 'plain-runs'), '--out', join(work, 'plain')]);
    const plain = readNpyFloat32(join(work, 'plain', 'likelihood', 'reference.npy'));
    const plainReport = JSON.parse(readFileSync(join(work, 'plain', 'report.json'), 'utf8')) as { fingerprint?: string };
    expect(mergedReport.fingerprint).toBe(plainReport.fingerprint);
    expect(merged.length).toBe(plain.length);
    let worst = 0;
    for (let i = 0; i < plain.length; i++) worst = Math.max(worst, Math.abs(merged[i]! - plain[i]!) / Math.max(1, Math.abs(plain[i]!)));
    expect(worst).toBeLessThan(1e-5);
  }, 400_000);
});
