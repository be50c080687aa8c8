/**
 * One reading of the machine's load from inside the engine process: load averages, the machine's
 * CPU ticks from /proc/stat (Linux only; elsewhere none) and this process's own CPU time, which
 * covers every thread, the engine workers included.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg, platform } from 'node:os';
import type { LoadReading } from '../../analysis';

/** The aggregate "cpu" line of /proc/stat: busy = everything but idle and iowait. */
export function parseProcStat(text: string): { busy: number; total: number } | undefined {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return undefined;
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (ticks.length < 4 || ticks.some((t) => !Number.isFinite(t))) return undefined;
  // guest time is already inside user time, so the first eight fields are the whole
  const total = ticks.reduce((s, t) => s + t, 0);
  const idle = ticks[3]! + (ticks[4] ?? 0);
  return { busy: total - idle, total };
}

function machineTicks(): { busy: number; total: number } | undefined {
  if (platform() !== 'linux') return undefined;
  try {
    return parseProcStat(readFileSync('/proc/stat', 'utf8'));
  } catch {
    // a sandbox without /proc: the share of other processes is left out, not guessed
    return undefined;
  }
}

export function readLoad(nowMs: () => number = () => performance.now()): LoadReading {
  const usage = process.cpuUsage();
  const reading: LoadReading = {
    atMs: nowMs(),
    // Windows has no load average and reports zeros
    loadAverage: platform() === 'win32' ? [] : loadavg(),
    cores: cpus().length,
    ownCpuMs: (usage.user + usage.system) / 1000,
  };
  const ticks = machineTicks();
  if (ticks) reading.machineTicks = ticks;
  return reading;
}
