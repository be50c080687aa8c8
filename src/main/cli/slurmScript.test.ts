import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { arrayScript, mergeScript, shellQuote, type SlurmPlan } from './slurmScript';

const plan: SlurmPlan = {
  cli: ['/opt/node/bin/node', '/home/lab/kde profiler/bin/kde-profiler.mjs'],
  data: "/data/rat's session.nwb",
  shards: 4,
  shardBy: 'spikes',
  runsDir: '/shared/runs',
  outDir: '/shared/out',
  runFlags: ['--strategy', 'reference,compensated', '--save-likelihood'],
  jobName: 'decode-rat7',
  partition: 'gpu',
  time: '02:00:00',
  cpusPerTask: 8,
  gpusPerTask: 1,
};

function bashSyntaxOk(text: string): void {
  const file = join(mkdtempSync(join(tmpdir(), 'kde-slurm-')), 'script.sh');
  writeFileSync(file, text);
  execFileSync('bash', ['-n', file]);
}

describe('sbatch scripts', () => {
  it('quotes any word for bash', () => {
    expect(shellQuote('/plain/path-1.npz')).toBe('/plain/path-1.npz');
    expect(shellQuote("it's here")).toBe(`'it'\\''s here'`);
    const out = execFileSync('bash', ['-c', `printf '%s' ${shellQuote("a b'c\"$HOME")}`]).toString();
    expect(out).toBe(`a b'c"$HOME`);
  });

  it('writes an array job: one task per shard, resources and threads from the allocation, TF32 off', () => {
    const text = arrayScript(plan);
    bashSyntaxOk(text);
    for (const line of ['#SBATCH --array=0-3', '#SBATCH --cpus-per-task=8', '#SBATCH --gpus-per-task=1', '#SBATCH --partition=gpu',
      '#SBATCH --time=02:00:00', '#SBATCH --output=/shared/out/logs/shard-%a.out', 'export NVIDIA_TF32_OVERRIDE=0',
      'export OMP_NUM_THREADS="${SLURM_CPUS_PER_TASK:-1}"']) {
      expect(text).toContain(line);
    }
    expect(text).toContain(`'/home/lab/kde profiler/bin/kde-profiler.mjs' run --data '/data/rat'\\''s session.nwb' --shard "\${shard}/4" --shard-by spikes`);
    expect(text).toContain('--workers "${SLURM_CPUS_PER_TASK:-1}" --runs-dir /shared/out/shard-runs');
    expect(text).toContain('--strategy reference,compensated --save-likelihood');
  });

  it('allows TF32 only when the run flags ask for it, and leaves out what was not asked', () => {
    const text = arrayScript({ ...plan, runFlags: ['--allow-tf32'], partition: undefined, time: undefined, gpusPerTask: undefined });
    bashSyntaxOk(text);
    expect(text).toContain('export NVIDIA_TF32_OVERRIDE=1');
    expect(text).not.toMatch(/--partition|--time|--gpus-per-task/);
  });

  it("writes a merge job over the shards' runs folder into the lab's runs folder", () => {
    const text = mergeScript(plan);
    bashSyntaxOk(text);
    expect(text).toContain('merge /shared/out/shard-runs');
    expect(text).toContain('--out /shared/out/merged --runs-dir /shared/runs');
    expect(text).toContain('#SBATCH --job-name=decode-rat7-merge');
  });
});
