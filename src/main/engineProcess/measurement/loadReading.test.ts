import { describe, expect, it } from 'vitest';
import { parseProcStat, readLoad } from './loadReading';

describe('parseProcStat', () => {
  it('reads busy and total ticks from the aggregate cpu line, idle and iowait being idle', () => {
    const text = 'cpu  100 5 50 800 20 3 2 10 0 0\ncpu0 50 2 25 400 10 1 1 5 0 0\nintr 1 2 3\n';
    expect(parseProcStat(text)).toEqual({ busy: 100 + 5 + 50 + 3 + 2 + 10, total: 990 });
    expect(parseProcStat('intr 1 2')).toBeUndefined();
  });
});

describe('readLoad', () => {
  it('reads this process\'s CPU time and the cores, and the machine\'s ticks where /proc/stat exists', () => {
    const r = readLoad(() => 42);
    expect(r.atMs).toBe(42);
    expect(r.cores).toBeGreaterThan(0);
    expect(r.ownCpuMs).toBeGreaterThan(0);
    if (process.platform === 'linux') expect(r.machineTicks!.total).toBeGreaterThan(r.machineTicks!.busy);
  });
});
