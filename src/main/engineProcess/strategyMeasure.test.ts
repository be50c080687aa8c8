import { describe, expect, it } from 'vitest';
import { parseRunConfig, type StoppingRule } from '../../shared/config';
import { makePreset } from '../data';
import { Recorder } from '../recorder';
import type { EngineDeps } from './engineDeps';
import { SpanCollector, type MeasureContext, type MemoryWatch } from './measureContext';
import { ProgressTracker } from './progressTracker';
import { measureStrategy } from './strategyMeasure';
import { fakeEngineDeps } from './testing';

/**
 * A fake engine on a fake clock: every predict advances the clock by the next scripted duration,
 * so the warm totals are exactly the script (the fit takes no time).
 */
function scripted(durationsMs: (i: number) => number): { deps: EngineDeps; now: () => number } {
  const base = fakeEngineDeps();
  let clock = 0;
  let call = 0;
  const deps: EngineDeps = {
    ...base,
    predictNonlocal: async (...args) => {
      clock += durationsMs(call++);
      return base.predictNonlocal(...args);
    },
  };
  return { deps, now: () => clock };
}

const memory: MemoryWatch = { markStage: () => undefined, sampleNow: () => undefined, summary: () => ({ stages: {} }) };

async function measureWith(durationsMs: (i: number) => number, untilStable?: StoppingRule, repeats = 5) {
  const { deps, now } = scripted(durationsMs);
  const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies: ['reference'], repeats, warmup: 1, untilStable });
  const tracker = new ProgressTracker([{ name: 'reference', units: 2 + repeats }], now);
  const labels: string[] = [];
  const ctx: MeasureContext = {
    deps, dataset: makePreset('tiny', { seed: 1 }), config, tracker, memory, nowMs: now,
    rec: new Recorder({ proc: 'engine', disabled: true }),
    spans: new SpanCollector(),
    options: { blockSize: 100 },
    signal: new AbortController().signal,
    emitProgress: () => labels.push(tracker.snapshot().label),
  };
  const m = await measureStrategy(ctx, 'reference');
  return { total: m.result.total!, result: m.result, labels, progress: tracker.snapshot() };
}

// the cold call and the profiled warm-up come first: warm repeat k is predict call k + 1
const warm = (f: (k: number) => number) => (i: number) => (i < 2 ? 500 : f(i - 2));

describe('measureStrategy repeats', () => {
  it('takes exactly the asked repeats without a stopping rule', async () => {
    const { total } = await measureWith(warm((k) => 100 + (k % 2) * 50), undefined, 3);
    expect(total.n).toBe(3);
    expect(total.stoppedBy).toBe('repeats');
    expect(total.samplesMs).toEqual([100, 150, 100]);
  });

  it('stops by precision once the median\'s interval is within ±5 %', async () => {
    const rule = { relativeCi: 0.05, maxTimeS: 60, maxRepeats: 200 };
    // noisy for the first eight repeats, then steady at 180 ms
    const { total, labels, progress } = await measureWith(warm((k) => (k < 8 ? (k % 2 === 0 ? 120 : 260) : 180)), rule);
    expect(total.stoppedBy).toBe('precision');
    expect(total.n).toBeGreaterThan(8);
    expect(total.n).toBeLessThan(60);
    expect(total.ci95![1] - total.ci95![0]).toBeLessThanOrEqual(0.1 * total.medianMs);
    // progress says where the interval stands against its target
    expect(labels.some((l) => /reference · repeat \d+ \(±\d+\.\d %, target ±5 %, \d+ of 60 s\)/.test(l))).toBe(true);
    expect(progress.fraction).toBe(1);
  });

  it('stops by time when the next repeat would end past the budget', async () => {
    const rule = { relativeCi: 0.01, maxTimeS: 2, maxRepeats: 200 };
    const { total } = await measureWith(warm((k) => (k % 2 === 0 ? 100 : 300)), rule);
    expect(total.stoppedBy).toBe('time');
    // 200 ms a repeat on average: ten of them fit in 2 s
    expect(total.samplesMs.reduce((s, x) => s + x, 0)).toBeLessThanOrEqual(2000);
    expect(total.n).toBe(10);
  });

  it('stops at the repeat cap', async () => {
    const rule = { relativeCi: 0.01, maxTimeS: 3600, maxRepeats: 12 };
    const { total } = await measureWith(warm((k) => (k % 2 === 0 ? 100 : 300)), rule);
    expect(total).toMatchObject({ stoppedBy: 'max-repeats', n: 12 });
  });

  it('never stops before the asked repeats, whatever the budget', async () => {
    const rule = { relativeCi: 0.05, maxTimeS: 0.1, maxRepeats: 200 };
    const { total } = await measureWith(warm(() => 1000), rule);
    expect(total.n).toBe(5);
  });

  it('records the machine\'s load around the strategy', async () => {
    const { result } = await measureWith(warm(() => 10), undefined, 2);
    expect(result.load?.loadAverageStart.length).toBeGreaterThanOrEqual(0);
    expect(typeof result.load?.busy).toBe('boolean');
  });
});
