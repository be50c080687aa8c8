import { describe, expect, it } from 'vitest';
import { combineMachineLoads, machineLoadBetween, type LoadReading } from './machineLoad';

function reading(extra: Partial<LoadReading>): LoadReading {
  return { atMs: 0, loadAverage: [0.2, 0.2, 0.2], cores: 4, machineTicks: { busy: 0, total: 0 }, ownCpuMs: 0, ...extra };
}

describe('machineLoadBetween', () => {
  it('takes other processes\' share as the machine\'s busy time less this process\'s own', () => {
    // 10 s on 4 cores = 4000 ticks of 10 ms; the machine was busy 2000 of them, this process 10 s of CPU (1000 ticks)
    const start = reading({});
    const end = reading({ atMs: 10_000, loadAverage: [1.3, 0.5, 0.3], machineTicks: { busy: 2000, total: 4000 }, ownCpuMs: 10_000 });
    const load = machineLoadBetween(start, end);
    expect(load.otherCpuShare).toBeCloseTo(0.25, 12);
    expect(load.loadAverageStart).toEqual([0.2, 0.2, 0.2]);
    expect(load.loadAverageEnd).toEqual([1.3, 0.5, 0.3]);
    expect(load.busy).toBe(false);
  });

  it('is busy when other processes hold more than a quarter of the machine', () => {
    const end = reading({ atMs: 10_000, machineTicks: { busy: 3000, total: 4000 }, ownCpuMs: 10_000 });
    expect(machineLoadBetween(reading({}), end)).toMatchObject({ busy: true });
  });

  it('trusts the measured share over a load average that still counts this run\'s own earlier work', () => {
    // 2 cores, both kept busy by this run's workers; others took 3 % of the machine; the lagging 1-minute average reads 1.9
    const start = reading({ cores: 2, loadAverage: [1.9, 2.1, 3.1] });
    const end = reading({ atMs: 10_000, cores: 2, loadAverage: [1.8, 2.1, 3.1], machineTicks: { busy: 2060, total: 2000 * 1.03 }, ownCpuMs: 20_000 });
    const load = machineLoadBetween(start, end);
    expect(load.otherCpuShare).toBeLessThan(0.05);
    expect(load.busy).toBe(false);
  });

  it('is busy when the load average exceeds the cores this process left free where the share cannot be read, and leaves out what it cannot read', () => {
    const start = reading({ loadAverage: [3.5, 3, 3], machineTicks: undefined });
    const end = reading({ atMs: 10_000, loadAverage: [4.2, 3, 3], machineTicks: undefined, ownCpuMs: 10_000 });
    const load = machineLoadBetween(start, end);
    expect(load.otherCpuShare).toBeUndefined();
    expect(load.busy).toBe(true);
    expect(machineLoadBetween(reading({ loadAverage: [], machineTicks: undefined }), reading({ atMs: 10, loadAverage: [], machineTicks: undefined })).busy).toBe(false);
  });
});

describe('combineMachineLoads', () => {
  it('spans first start to last end, weights the other share by duration, and is busy if any part was', () => {
    const a = { loadAverageStart: [0.1], loadAverageEnd: [0.5], otherCpuShare: 0.1, busy: false };
    const b = { loadAverageStart: [0.5], loadAverageEnd: [2.5], otherCpuShare: 0.4, busy: true };
    const load = combineMachineLoads([{ load: a, durationMs: 3000 }, { load: b, durationMs: 1000 }])!;
    expect(load).toMatchObject({ loadAverageStart: [0.1], loadAverageEnd: [2.5], busy: true });
    expect(load.otherCpuShare).toBeCloseTo(0.175, 12);
    expect(combineMachineLoads([])).toBeUndefined();
  });
});
