import { describe, expect, it } from 'vitest';
import { ExternalLane } from './externalLane';

const hello = (tNs: number) => ({ type: 'hello' as const, engine: 'e', version: '1', tNs, device: 'cpu', dtype: 'f', info: {} });

describe("an external engine's lane", () => {
  it('puts the engine\'s monotonic stamps on the run clock, and names its lane', () => {
    // the run began 1 s of monotonic time ago: monotonic 5e9 ns is run time 1e6 µs
    const lane = new ExternalLane({ name: 'numpy', tid: 2, nowUs: () => 1e6, nowNs: () => 5_000_000_000n });
    expect(lane.hello(hello(4_999_000_000))).toEqual([{ ph: 'M', proc: 'external', tid: 2, name: 'thread_name', args: { name: 'numpy' } }]);
    const s = lane.span({ type: 'span', name: 'fit', startNs: 4_500_000_000, endNs: 4_750_000_000, args: { phase: 'warm' } });
    expect(s).toMatchObject({ ph: 'X', proc: 'external', tid: 2, name: 'fit', ts: 500_000, dur: 250_000, args: { phase: 'warm', engine: 'numpy' } });
    expect(lane.counter({ type: 'counter', name: 'xla compilations', tNs: 5e9, value: 3 })).toEqual({ ph: 'C', proc: 'external', name: 'numpy · xla compilations', ts: 1e6, args: { value: 3 } });
    expect(lane.rss(512 * 1024 * 1024)).toMatchObject({ name: 'numpy memory (MB)', args: { rss: 512 } });
  });

  it('shifts an engine whose clock is another (stamps far from ours) onto the run clock at its hello', () => {
    const lane = new ExternalLane({ name: 'e', tid: 1, nowUs: () => 2e6, nowNs: () => 9_000_000_000_000n });
    lane.hello(hello(1000));
    expect(lane.span({ type: 'span', name: 'x', startNs: 1000, endNs: 1_001_000, args: {} })).toMatchObject({ ts: 2e6, dur: 1000 });
  });
});
