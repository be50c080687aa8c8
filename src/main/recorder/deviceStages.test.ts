import { describe, expect, it } from 'vitest';
import type { StageTime } from '../../shared/report';
import { electrodeArgs } from '../../shared/traceSpans';
import { DeviceStageTimes } from './deviceStages';

const host: StageTime[] = [
  { name: 'electrode', calls: 2, totalMs: 9, selfMs: 1, byElectrode: [{ electrode: 0, calls: 1, totalMs: 5 }, { electrode: 1, calls: 1, totalMs: 4 }] },
  { name: 'reduce', calls: 2, totalMs: 8, selfMs: 8, gpu: { dispatches: 4, pipelines: 0, readBytes: 0 } },
  { name: 'occupancy', calls: 1, totalMs: 3, selfMs: 3 },
];

function timed(): DeviceStageTimes {
  const d = new DeviceStageTimes();
  d.add({ name: 'electrode', args: electrodeArgs(0, 't1'), gpuMs: 2, gpuSelfMs: 0.5 });
  d.add({ name: 'electrode', args: electrodeArgs(1, 't2'), gpuMs: 30, gpuSelfMs: 1 });
  d.add({ name: 'reduce', gpuMs: 1.5, gpuSelfMs: 1.5 });
  d.add({ name: 'reduce', gpuMs: 29, gpuSelfMs: 29 });
  return d;
}

describe('stage times on the device clock', () => {
  it('keeps the host table as it is on the host clock', () => {
    expect(timed().onClock(host, 'host')).toEqual(host);
  });

  it("takes each stage's times from the GPU, keeps the host's beside, and sorts by GPU time", () => {
    const rows = timed().onClock(host, 'gpu');
    expect(rows.map((r) => r.name)).toEqual(['electrode', 'reduce', 'occupancy']);
    expect(rows[0]).toMatchObject({ clock: 'gpu', totalMs: 32, selfMs: 1.5, hostMs: 9, hostSelfMs: 1, calls: 2 });
    expect(rows[0]!.byElectrode).toEqual([{ electrode: 0, calls: 1, totalMs: 2 }, { electrode: 1, calls: 1, totalMs: 30 }]);
    expect(rows[1]).toMatchObject({ clock: 'gpu', totalMs: 30.5, hostMs: 8, gpu: { dispatches: 4 } });
    // a stage the timer did not see keeps its host time, and says so
    expect(rows[2]).toEqual({ ...host[2], clock: 'host' });
  });

  it('shows no stage time where the device could not time them', () => {
    const rows = new DeviceStageTimes().onClock(host, 'unsplit');
    expect(rows.every((r) => r.clock === 'unsplit' && r.totalMs === 0 && r.selfMs === 0)).toBe(true);
    expect(rows.map((r) => r.hostMs)).toEqual([9, 8, 3]);
  });
});
