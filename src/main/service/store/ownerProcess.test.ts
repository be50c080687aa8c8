import { describe, expect, it } from 'vitest';
import { ownerAlive, ownerStamp, processStartTicks } from './ownerProcess';
import { DEAD_PID } from './runStoreTesting.testdata';

describe('ownerAlive', () => {
  it('is false without an owner or with a dead pid', () => {
    expect(ownerAlive({})).toBe(false);
    expect(ownerAlive({ ownerPid: DEAD_PID, ownerStart: 1 })).toBe(false);
  });

  it('judges a status without a start time by its pid, as before start times were recorded', () => {
    expect(ownerAlive({ ownerPid: process.pid })).toBe(true);
  });

  it.skipIf(process.platform !== 'linux')('tells the process that wrote the status from a later one given its pid', () => {
    const start = processStartTicks(process.pid)!;
    expect(Number.isSafeInteger(start)).toBe(true);
    expect(ownerAlive({ ownerPid: process.pid, ownerStart: start })).toBe(true);
    expect(ownerAlive({ ownerPid: process.pid, ownerStart: start + 1 })).toBe(false);
    expect(ownerStamp()).toEqual({ ownerPid: process.pid, ownerStart: start });
  });

  it('reads no start time of a process that does not exist', () => {
    expect(processStartTicks(DEAD_PID)).toBeUndefined();
  });
});
