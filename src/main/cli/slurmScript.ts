/**
 * The sbatch scripts of `kde-profiler slurm`: an array job with one task per shard (each a normal
 * recorded `run --shard I/N` into OUT/shard-runs, a runs folder the tasks share), and a merge job
 * that SLURM starts only when every shard succeeded (afterok): it makes them one run in the lab's
 * runs folder and copies its outputs to OUT/merged. Threads come from the allocation, so a task
 * never oversubscribes the cores it was given. Pure text: tested as such.
 */
import type { ShardSplit } from '../../shared/config';

export interface SlurmPlan {
  /** how to start the CLI on a compute node, as argv words (node and the entry script, or `kde-profiler`) */
  cli: string[];
  data: string;
  shards: number;
  shardBy: ShardSplit;
  /** the lab's runs folder, where the merged run lands */
  runsDir: string;
  /** scripts, logs, the shards' runs folder and the merged outputs */
  outDir: string;
  /** flags passed through to every shard's `run` (after `--`) */
  runFlags: string[];
  jobName: string;
  partition?: string;
  /** SLURM's time format: minutes, MM:SS, HH:MM:SS, D-HH:MM:SS */
  time?: string;
  cpusPerTask: number;
  gpusPerTask?: number;
}

/** Quotes a word for bash: safe for any path or flag, including spaces and quotes. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function words(ws: string[]): string {
  return ws.map(shellQuote).join(' ');
}

function header(plan: SlurmPlan, name: string, output: string, extra: string[]): string[] {
  const lines = ['#!/bin/bash', `#SBATCH --job-name=${name}`, `#SBATCH --output=${output}`, ...extra];
  if (plan.partition) lines.push(`#SBATCH --partition=${plan.partition}`);
  if (plan.time) lines.push(`#SBATCH --time=${plan.time}`);
  return lines;
}

/** The environment every task sets from its allocation before the engine starts. */
function environment(plan: SlurmPlan): string[] {
  const allowTf32 = plan.runFlags.includes('--allow-tf32');
  return [
    'set -euo pipefail',
    '# threads follow the allocation: libraries that read these never exceed the cores SLURM gave this task',
    'export OMP_NUM_THREADS="${SLURM_CPUS_PER_TASK:-1}"',
    'export TF_NUM_INTRAOP_THREADS="${SLURM_CPUS_PER_TASK:-1}"',
    'export TF_NUM_INTEROP_THREADS=1',
    allowTf32
      ? '# --allow-tf32 was asked: float32 matmuls may run as TF32 on NVIDIA GPUs'
      : '# exact float32 matmuls on NVIDIA GPUs (TF32 keeps a 10-bit mantissa)',
    `export NVIDIA_TF32_OVERRIDE=${allowTf32 ? 1 : 0}`,
  ];
}

export function arrayScript(plan: SlurmPlan): string {
  const extra = [`#SBATCH --array=0-${plan.shards - 1}`, '#SBATCH --ntasks=1', `#SBATCH --cpus-per-task=${plan.cpusPerTask}`];
  if (plan.gpusPerTask) extra.push(`#SBATCH --gpus-per-task=${plan.gpusPerTask}`);
  const lines = [
    ...header(plan, plan.jobName, `${plan.outDir}/logs/shard-%a.out`, extra),
    '',
    ...environment(plan),
    '',
    'shard="${SLURM_ARRAY_TASK_ID}"',
    `${words(plan.cli)} run --data ${shellQuote(plan.data)} --shard "\${shard}/${plan.shards}" --shard-by ${plan.shardBy} \\`,
    `  --workers "\${SLURM_CPUS_PER_TASK:-1}" --runs-dir ${shellQuote(shardRunsDir(plan))} \\`,
    `  --label "${plan.jobName} shard \${shard}/${plan.shards}"${plan.runFlags.length ? ` \\\n  ${words(plan.runFlags)}` : ''}`,
    '',
  ];
  return lines.join('\n');
}

/** the runs folder the array tasks share: the merge reads every shard run in it */
function shardRunsDir(plan: SlurmPlan): string {
  return `${plan.outDir}/shard-runs`;
}

export function mergeScript(plan: SlurmPlan): string {
  const lines = [
    ...header(plan, `${plan.jobName}-merge`, `${plan.outDir}/logs/merge.out`, ['#SBATCH --ntasks=1', '#SBATCH --cpus-per-task=1']),
    '',
    'set -euo pipefail',
    `${words(plan.cli)} merge ${shellQuote(shardRunsDir(plan))} \\`,
    `  --out ${shellQuote(plan.outDir)}/merged --runs-dir ${shellQuote(plan.runsDir)}`,
    '',
  ];
  return lines.join('\n');
}
