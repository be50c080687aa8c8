import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_TIMEOUT_MS, engineTimeoutFromEnv, watchEngine } from './engineWatchdog';

/** a watchdog on a clock and a CPU counter the test moves by hand */
function watched(timeoutMs: number) {
  const clock = { now: 0, cpu: 100 };
  const stalls: number[] = [];
  const dog = watchEngine({ pid: () => 1234, timeoutMs, onStalled: (ms) => stalls.push(ms), nowMs: () => clock.now, cpuTicks: () => clock.cpu });
  return { clock, stalls, dog };
}

describe('watchEngine', () => {
  it('takes an engine that says nothing and uses no CPU for the timeout for hung, once', () => {
    const { clock, stalls, dog } = watched(10_000);
    clock.now = 9_999;
    dog.check();
    expect(stalls).toEqual([]);
    clock.now = 10_500;
    dog.check();
    clock.now = 20_000;
    dog.check();
    expect(stalls).toEqual([10_500]);
  });

  it('counts a message, or CPU time used, as a sign of life', () => {
    const { clock, stalls, dog } = watched(10_000);
    clock.now = 8_000;
    dog.alive();
    clock.now = 17_000;
    dog.check();
    clock.cpu = 150;
    clock.now = 19_000;
    // busy computing: its event loop is held, so no heartbeat, but its CPU time advanced
    dog.check();
    clock.now = 28_000;
    dog.check();
    expect(stalls).toEqual([]);
    clock.now = 29_500;
    dog.check();
    expect(stalls).toEqual([10_500]);
    dog.stop();
  });
});

describe('engineTimeoutFromEnv', () => {
  it('reads seconds, keeps the default for anything else, and never goes below two heartbeats', () => {
    expect(engineTimeoutFromEnv({})).toBe(DEFAULT_ENGINE_TIMEOUT_MS);
    expect(engineTimeoutFromEnv({ KDE_PROFILER_ENGINE_TIMEOUT_S: '600' })).toBe(600_000);
    expect(engineTimeoutFromEnv({ KDE_PROFILER_ENGINE_TIMEOUT_S: '2.5' })).toBe(4_000);
    for (const bad of ['', 'soon', '-1', '0', 'Infinity']) expect(engineTimeoutFromEnv({ KDE_PROFILER_ENGINE_TIMEOUT_S: bad })).toBe(DEFAULT_ENGINE_TIMEOUT_MS);
  });
});
