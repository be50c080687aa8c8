/**
 * A one-node SLURM cluster for tests: munge, slurmctld and slurmd from Debian's slurm-wlm, every
 * file under one temporary folder, the controller and the node on loopback ports of their own.
 * It needs root (slurmd starts jobs as their user) and the packages (.ci/install-system.sh); where
 * either is missing, `startSlurmCluster` says why instead of starting.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface SlurmCluster {
  /** environment for sbatch/squeue/scontrol: SLURM_CONF points at this cluster */
  env: NodeJS.ProcessEnv;
  dir: string;
  stop(): void;
}

const DAEMONS = ['munged', 'slurmctld', 'slurmd'];

function missing(): string | null {
  if (process.platform !== 'linux') return 'SLURM runs on Linux only';
  if (process.getuid?.() !== 0) return 'slurmd must run as root to start jobs; the tests are not running as root';
  for (const bin of [...DAEMONS, 'sbatch', 'squeue', 'scontrol']) {
    if (spawnSync('which', [bin]).status !== 0) return `${bin} is not installed (Debian: apt-get install slurmctld slurmd slurm-client munge)`;
  }
  return null;
}

function config(dir: string, port: number): string {
  const host = hostname();
  return [
    'ClusterName=kdetest',
    `SlurmctldHost=${host}(127.0.0.1)`,
    `SlurmctldPort=${port}`,
    `SlurmdPort=${port + 1}`,
    'AuthType=auth/munge',
    `AuthInfo=socket=${dir}/munge/socket`,
    'SlurmUser=root',
    'SlurmdUser=root',
    `StateSaveLocation=${dir}/state`,
    `SlurmdSpoolDir=${dir}/spool`,
    `SlurmctldPidFile=${dir}/slurmctld.pid`,
    `SlurmdPidFile=${dir}/slurmd.pid`,
    `SlurmctldLogFile=${dir}/slurmctld.log`,
    `SlurmdLogFile=${dir}/slurmd.log`,
    // no cgroups in a container: track processes by their parent, bind no tasks
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    'SchedulerType=sched/builtin',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_Core',
    'ReturnToService=2',
    'MpiDefault=none',
    `NodeName=${host} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN`,
    `PartitionName=debug Nodes=${host} Default=YES MaxTime=INFINITE State=UP`,
    '',
  ].join('\n');
}

function kill(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

/** Starts the cluster and waits until its node is idle; `{ skip }` says why it cannot start here. */
export function startSlurmCluster(dir: string): SlurmCluster | { skip: string } {
  const why = missing();
  if (why) return { skip: why };
  for (const sub of ['munge', 'state', 'spool']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'munge/key'), randomBytes(128), { mode: 0o600 });
  // a port per cluster, so a second test run on this machine does not meet the first one's controller
  const port = 20000 + Math.floor(Math.random() * 20000);
  const conf = join(dir, 'slurm.conf');
  writeFileSync(conf, config(dir, port));
  const env = { ...process.env, SLURM_CONF: conf };
  execFileSync('munged', ['--force', `--key-file=${dir}/munge/key`, `--socket=${dir}/munge/socket`, `--log-file=${dir}/munge/log`,
    `--pid-file=${dir}/munge/pid`, `--seed-file=${dir}/munge/seed`]);
  execFileSync('slurmctld', ['-f', conf], { env });
  execFileSync('slurmd', ['-f', conf], { env });
  const stop = () => {
    kill(join(dir, 'slurmd.pid'));
    kill(join(dir, 'slurmctld.pid'));
    kill(join(dir, 'munge/pid'));
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const state = spawnSync('sinfo', ['-h', '-o', '%T'], { env }).stdout?.toString().trim();
    if (state === 'idle') return { env, dir, stop };
    spawnSync('sleep', ['0.5']);
  }
  stop();
  return { skip: `the test cluster's node did not become idle within 30 s (see ${dir}/slurmctld.log)` };
}

/** Waits until none of the jobs is pending or running; returns each job's final state. */
export function waitForJobs(cluster: SlurmCluster, jobIds: string[], timeoutMs: number): Record<string, string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states: Record<string, string> = {};
    for (const id of jobIds) {
      const out = spawnSync('scontrol', ['show', 'job', id], { env: cluster.env }).stdout?.toString() ?? '';
      const all = [...out.matchAll(/JobState=(\S+)/g)].map((m) => m[1]!);
      states[id] = all.find((s) => s !== 'COMPLETED') ?? (all.length ? 'COMPLETED' : 'UNKNOWN');
    }
    const busy = Object.values(states).some((s) => s === 'PENDING' || s === 'RUNNING' || s === 'CONFIGURING' || s === 'COMPLETING');
    if (!busy) return states;
    if (Date.now() > deadline) throw new Error(`SLURM jobs still busy after ${timeoutMs} ms: ${JSON.stringify(states)}`);
    spawnSync('sleep', ['1']);
  }
}
