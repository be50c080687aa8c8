import { describe, expect, it } from 'vitest';
import { parseRunConfig, type StoppingRule, type StrategyChoice } from '../../../shared/config';
import type { SpanRecord, ThreadNameRecord } from '../../../shared/events';
import { AppError } from '../../../shared/errors';
import { makePreset } from '../../data';
import { Recorder } from '../../recorder';
import type { EngineDeps } from '../session/engineDeps';
import { SpanCollector, type MeasureContext, type MemoryWatch } from './measureContext';
import { ProgressTracker } from './progressTracker';
import { measureStrategies, type StrategyMeasurement } from './strategyMeasure';
import { fakeEngineDeps } from '../testing';

/**
 * A fake engine on a fake clock: every predict advances the clock by the next scripted duration
 * (given the strategy and the engine's call count so far), so the warm totals are exactly the
 * script (the fit takes no time).
 */
function scripted(durationsMs: (i: number, strategy: string) => number): { deps: EngineDeps; now: () => number } {
  const base = fakeEngineDeps();
  let clock = 0;
  let call = 0;
  const deps: EngineDeps = {
    ...base,
    predictNonlocal: async (...args) => {
      clock += durationsMs(call++, args[2]);
      return base.predictNonlocal(...args);
    },
  };
  return { deps, now: () => clock };
}

const memory: MemoryWatch = { markStage: () => undefined, sampleNow: () => undefined, summary: () => ({ stages: {} }) };

interface Measured {
  rows: StrategyMeasurement[];
  labels: string[];
  rounds: StrategyMeasurement[][];
  progress: ReturnType<ProgressTracker['snapshot']>;
}

async function measureAll(
  strategies: StrategyChoice[], durationsMs: (i: number, strategy: string) => number, untilStable?: StoppingRule, repeats = 5,
): Promise<Measured> {
  const { deps, now } = scripted(durationsMs);
  const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies, repeats, warmup: 1, untilStable });
  const tracker = new ProgressTracker(strategies.map((name) => ({ name, units: 2 + repeats })), now);
  const labels: string[] = [];
  const rounds: StrategyMeasurement[][] = [];
  const ctx: MeasureContext = {
    deps, dataset: makePreset('tiny', { seed: 1 }), config, tracker, memory, nowMs: now,
    rec: new Recorder({ proc: 'engine', disabled: true }),
    spans: new SpanCollector(),
    options: { blockSize: 100 },
    signal: new AbortController().signal,
    emitProgress: () => labels.push(tracker.snapshot().label),
  };
  const rows = await measureStrategies(ctx, strategies, (soFar) => rounds.push(soFar));
  return { rows, labels, rounds, progress: tracker.snapshot() };
}

async function measureWith(durationsMs: (i: number) => number, untilStable?: StoppingRule, repeats = 5) {
  const { rows, labels, progress } = await measureAll(['reference'], durationsMs, untilStable, repeats);
  const result = rows[0]!.result;
  return { total: result.total!, result, labels, progress };
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

/** Durations by each strategy's own call count k (0 cold, 1 the profiled warm-up, then its repeats). */
function perStrategy(f: (k: number, strategy: string) => number): (i: number, strategy: string) => number {
  const calls = new Map<string, number>();
  return (_i, strategy) => {
    const k = calls.get(strategy) ?? 0;
    calls.set(strategy, k + 1);
    return f(k, strategy);
  };
}

describe('measureStrategies interleaves the repeats', () => {
  it('spreads a drift of the machine over every strategy instead of charging it to the last one', async () => {
    // two strategies that cost the same, on a machine 10 ms slower at every call
    const { rows } = await measureAll(['reference', 'compensated'], (i) => 100 + 10 * i);
    const [a, b] = rows.map((r) => r.result.total!.medianMs);
    // measured one after the other the second strategy's repeats would lie 7 calls later: 70 ms slower
    expect(Math.abs(b! - a!)).toBeLessThanOrEqual(10);
    expect(rows.map((r) => r.result.total!.n)).toEqual([5, 5]);
  });

  it('gives each strategy its own time budget with --repeats auto', async () => {
    const rule = { relativeCi: 0.01, maxTimeS: 2, maxRepeats: 200 };
    const { rows, progress } = await measureAll(['reference', 'compensated'], perStrategy((k) => (k < 2 ? 500 : k % 2 === 0 ? 100 : 300)), rule);
    // 200 ms a repeat on average: ten of each fit in its own 2 s, though the rounds took 4 s
    for (const { result } of rows) expect(result.total).toMatchObject({ stoppedBy: 'time', n: 10 });
    expect(progress.fraction).toBe(1);
  });

  it('fails a strategy whose repeat throws, keeps measuring the others, and hands over each round', async () => {
    const broken = perStrategy((k, s) => {
      if (s === 'compensated' && k === 3) throw new Error('compensated broke on its second repeat');
      return 100;
    });
    const { rows, rounds } = await measureAll(['reference', 'compensated'], broken, undefined, 3);
    expect(rows[0]!.result).toMatchObject({ status: 'ok', total: { n: 3 } });
    expect(rows[1]!.result).toMatchObject({ status: 'failed', error: { message: 'compensated broke on its second repeat' } });
    expect(rounds.map((round) => round.map((r) => `${r.result.strategy}:${r.result.status}:${r.result.total?.n ?? '-'}`))).toEqual([
      // each strategy's first calls, then the rounds of repeats
      ['reference:ok:0'],
      ['reference:ok:0', 'compensated:ok:0'],
      ['reference:ok:1', 'compensated:ok:1'],
      ['reference:ok:2', 'compensated:failed:-'],
      ['reference:ok:3', 'compensated:failed:-'],
    ]);
  });

  it('completes a row (health) once its repeats stop, and hands the same row over in every later round', async () => {
    // reference is steady and stops at its 2 repeats; compensated never is, and goes on to its cap of 6
    const rule = { relativeCi: 1e-9, maxTimeS: 3600, maxRepeats: 6 };
    const steady = perStrategy((k, strategy) => (k < 2 ? 500 : strategy === 'reference' ? 100 : 100 + (k % 2) * 50));
    const { rounds: all, rows } = await measureAll(['reference', 'compensated'], steady, rule, 2);
    // after each strategy's first calls, then after each round of repeats
    const rounds = all.slice(2);
    expect(rounds).toHaveLength(6);
    const reference = rounds.map((round) => round.find((r) => r.result.strategy === 'reference')!);
    const compensated = rounds.map((round) => round.find((r) => r.result.strategy === 'compensated')!);
    expect(reference.slice(0, 1).map((r) => r.result.health)).toEqual([undefined]);
    expect(reference[1]!.result.health).toBeDefined();
    expect(reference.slice(2).every((r) => r === reference[1])).toBe(true);
    expect(compensated.slice(0, -1).every((r) => r.result.health === undefined)).toBe(true);
    expect(rows.every((r) => r.result.health !== undefined)).toBe(true);
  });
});

describe('a run stopped before its repeats', () => {
  it("keeps the first calls of the strategies that made them, when a cancel lands in a later one's", async () => {
    const controller = new AbortController();
    const base = fakeEngineDeps();
    const deps: EngineDeps = {
      ...base,
      predictNonlocal: async (...args) => {
        if (args[2] === 'compensated') {
          controller.abort();
          throw new DOMException('the run was cancelled', 'AbortError');
        }
        return base.predictNonlocal(...args);
      },
    };
    const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies: ['reference', 'compensated'], repeats: 3, warmup: 1 });
    const rounds: StrategyMeasurement[][] = [];
    const ctx: MeasureContext = {
      deps, dataset: makePreset('tiny', { seed: 1 }), config, tracker: new ProgressTracker([{ name: 'reference', units: 5 }, { name: 'compensated', units: 5 }]),
      memory, rec: new Recorder({ proc: 'engine', disabled: true }), spans: new SpanCollector(), options: { blockSize: 100 },
      signal: controller.signal, emitProgress: () => undefined,
    };
    await expect(measureStrategies(ctx, ['reference', 'compensated'], (soFar) => rounds.push(soFar))).rejects.toThrow();
    expect(rounds.at(-1)!.map((r) => r.result)).toMatchObject([{ strategy: 'reference', status: 'ok', total: { n: 0 } }]);
    expect(rounds.at(-1)![0]!.result.total!.firstMs).toBeGreaterThanOrEqual(0);
  });
});

describe('the profiled call on a backend that times its kernels', () => {
  it("puts the device's kernels on the GPU lane of the trace, beside the host's spans", async () => {
    const base = fakeEngineDeps();
    const deps: EngineDeps = {
      ...base,
      profileKernels: async (fn) => {
        const result = await fn();
        const t = process.hrtime.bigint();
        return {
          result, kernels: [], peakBytes: 0, deviceLane: 'GPU: test adapter',
          deviceSpans: [{ name: 'KdeFusedSpikeMax', startNs: t - 3000n, endNs: t - 2000n }, { name: 'KdeFusedTerms', startNs: t - 2000n, endNs: t - 500n }],
        };
      },
    };
    const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies: ['reference'], repeats: 1, warmup: 1 });
    const rec = new Recorder({ proc: 'engine' });
    const ctx: MeasureContext = {
      deps, dataset: makePreset('tiny', { seed: 1 }), config, tracker: new ProgressTracker([{ name: 'reference', units: 3 }]), memory,
      rec, spans: new SpanCollector(), options: { blockSize: 100 }, signal: new AbortController().signal, emitProgress: () => undefined,
    };
    await measureStrategies(ctx, ['reference'], () => undefined);
    const records = rec.takeRecords();
    const lane = records.find((r): r is ThreadNameRecord => r.ph === 'M' && r.args.name === 'GPU: test adapter');
    expect(lane).toBeDefined();
    const gpu = records.filter((r): r is SpanRecord => r.ph === 'X' && r.tid === lane!.tid);
    // the fit's kernels, then the predict's: each phase is profiled apart
    expect(gpu.map((r) => r.name)).toEqual(['KdeFusedSpikeMax', 'KdeFusedTerms', 'KdeFusedSpikeMax', 'KdeFusedTerms']);
    expect(lane!.tid).not.toBe(rec.tid);
  });
});

describe('a strategy whose device is lost', () => {
  it('fails with what the engine says of the loss, and the strategies measured before keep their rows', async () => {
    const base = fakeEngineDeps();
    const raw = new Error('');
    const lost = new AppError('DEVICE_LOST', 'the GPU device was lost while the engine used it: test adapter, destroyed');
    const deps: EngineDeps = {
      ...base,
      predictNonlocal: async (...args) => {
        if (args[2] === 'compensated') throw raw;
        return base.predictNonlocal(...args);
      },
      explainFailure: async (e) => (e === raw ? lost : e),
    };
    const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies: ['reference', 'compensated'], repeats: 1, warmup: 0 });
    const ctx: MeasureContext = {
      deps, dataset: makePreset('tiny', { seed: 1 }), config, memory,
      tracker: new ProgressTracker([{ name: 'reference', units: 2 }, { name: 'compensated', units: 2 }]),
      rec: new Recorder({ proc: 'engine', disabled: true }), spans: new SpanCollector(), options: { blockSize: 100 },
      signal: new AbortController().signal, emitProgress: () => undefined,
    };
    const rows = await measureStrategies(ctx, ['reference', 'compensated'], () => undefined);
    expect(rows.map((r) => r.result.status)).toEqual(['ok', 'failed']);
    expect(rows[1]!.result.error).toMatchObject({ code: 'DEVICE_LOST', message: lost.message });
  });
});

describe("a run's auto", () => {
  it("is probed once, in its cold call between the fit and the predict, and every call of it follows the probe", async () => {
    const base = fakeEngineDeps();
    const seen: { strategy: string; probed?: string }[] = [];
    const deps: EngineDeps = {
      ...base,
      predictNonlocal: async (m, d, strategy, o, p) => {
        seen.push({ strategy, ...(o.probed ? { probed: o.probed.faster } : {}) });
        await new Promise((resolve) => setTimeout(resolve, strategy === 'series' ? 1 : 20));
        return base.predictNonlocal(m, d, strategy, o, p);
      },
    };
    const config = parseRunConfig({ data: { kind: 'preset', name: 'place' }, strategies: ['auto'], repeats: 2, warmup: 0, kernelProfile: false });
    const rec = new Recorder({ proc: 'engine' });
    const ctx: MeasureContext = {
      deps, dataset: makePreset('place', { seed: 1 }), config, memory, tracker: new ProgressTracker([{ name: 'auto', units: 3 }]),
      rec, spans: new SpanCollector(), options: { blockSize: 4 }, signal: new AbortController().signal, emitProgress: () => undefined,
    };
    const [row] = await measureStrategies(ctx, ['auto'], () => undefined);
    // the report's row keeps what the probe measured, as decode.json does
    expect(row!.result.autoProbe).toMatchObject({ faster: 'series', candidates: [{ strategy: 'compensated' }, { strategy: 'series' }] });
    expect(row!.result.autoProbe!.candidates[0]!.ms).toBeGreaterThan(row!.result.autoProbe!.candidates[1]!.ms);
    expect(row!.result.autoProbe!.summary).toMatch(/^series .*, compensated .* decoding spikes$/);
    // the probe's four calls (the dispatch's twice, then series twice), then auto's cold call and two repeats
    expect(seen.slice(0, 4).map((s) => s.strategy)).toEqual(['compensated', 'compensated', 'series', 'series']);
    expect(seen.slice(4)).toEqual([{ strategy: 'auto', probed: 'series' }, { strategy: 'auto', probed: 'series' }, { strategy: 'auto', probed: 'series' }]);
    const spans = rec.takeRecords().filter((r): r is SpanRecord => r.ph === 'X');
    const probe = spans.filter((s) => s.name === 'auto-probe');
    const cold = spans.find((s) => s.name === 'cold')!;
    expect(probe).toHaveLength(1);
    expect(probe[0]!.ts).toBeGreaterThanOrEqual(cold.ts);
    expect(probe[0]!.ts + probe[0]!.dur).toBeLessThanOrEqual(cold.ts + cold.dur);
  });
});

describe('a named strategy past what the backend holds', () => {
  it('fails before its work with the electrode and what to do, and the run measures the others', async () => {
    // one electrode of 4 000 × 4 000 spikes over 40 000 bins: reference would hold B·E·P floats at once, terabytes
    const dataset = makePreset('tiny', { seed: 1, sizes: { nElectrodes: 1, meanEncodingSpikes: 4000, meanDecodingSpikes: 4000, nPositionBins: 40_000 } });
    const { deps, now } = scripted(() => 100);
    const strategies: StrategyChoice[] = ['reference', 'auto'];
    const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies, repeats: 1, warmup: 0 });
    const tracker = new ProgressTracker(strategies.map((name) => ({ name, units: 2 })), now);
    let predicts = 0;
    const counting: EngineDeps = { ...deps, predictNonlocal: async (...args) => { predicts++; return deps.predictNonlocal(...args); } };
    const ctx: MeasureContext = {
      deps: counting, dataset, config, tracker, memory, nowMs: now, backendName: 'wasm',
      rec: new Recorder({ proc: 'engine', disabled: true }), spans: new SpanCollector(),
      options: { blockSize: 1_000_000 }, signal: new AbortController().signal, emitProgress: () => undefined,
    };
    const rows = await measureStrategies(ctx, strategies);
    expect(rows[0]!.result.status).toBe('failed');
    expect(rows[0]!.result.error?.message).toMatch(/--strategy reference would hold .* past the 2\.00 GiB the wasm backend holds/);
    expect(rows[1]!.result.status).toBe('ok');
    // only auto's calls predicted: reference was refused before any
    expect(predicts).toBeGreaterThan(0);
    expect(rows[1]!.result.strategy).toBe('auto');
  });
});
