import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunConfig, type StrategyChoice } from '../../../shared/config';
import type { SpanRecord } from '../../../shared/events';
import type { Report, StrategyResult } from '../../../shared/report';
import { makePreset, parseNpy } from '../../data';
import { startEngineRun } from './engineRun';
import type { EngineDeps } from '../session/engineDeps';
import type { EngineOutcome, EngineToHost } from '../../engineProtocol';
import { localRatioToNonlocal } from '../measurement/localMeasure';
import { realEngineDeps } from '../session/realDeps';
import { fakeEngineDeps, type FakeEngineOptions } from '../testing';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engine-run-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function config(strategies: StrategyChoice[], extra: Record<string, unknown> = {}) {
  return parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, strategies, repeats: 3, warmup: 1, ...extra });
}

function runWith(deps: EngineDeps, strategies: StrategyChoice[], extra: Record<string, unknown> = {}) {
  const messages: EngineToHost[] = [];
  const run = startEngineRun(
    { type: 'start', runId: 'test', runDir: dir, config: config(strategies, extra), originNs: process.hrtime.bigint().toString() },
    deps,
    (m) => messages.push(m),
  );
  return { run, messages };
}

async function runFake(strategies: StrategyChoice[], options: FakeEngineOptions = {}, extra: Record<string, unknown> = {}) {
  return runWith(fakeEngineDeps(options), strategies, extra);
}

function outcomeOf(messages: EngineToHost[]): EngineOutcome {
  const r = messages.find((m) => m.type === 'result');
  if (!r || r.type !== 'result') throw new Error(`no result: ${JSON.stringify(messages.filter((m) => m.type !== 'trace'))}`);
  return r.outcome;
}

describe('startEngineRun', () => {
  it('times a cold call, warm-ups and repeats, and leaves the kernel-profiled call out of the timings', async () => {
    const { run, messages } = await runFake(['reference', 'compensated']);
    await run.done;
    const outcome = outcomeOf(messages);
    const [ref, comp] = outcome.strategies;
    expect(ref!.status).toBe('ok');
    expect(ref!.decode!.n).toBe(3);
    expect(ref!.total!.samplesMs).toHaveLength(3);
    // one profiled call, profiled per phase: the fake's one Exp kernel shows up for encode and for decode
    expect(ref!.kernels).toEqual([{ name: 'Exp', calls: 2, totalMs: 1, bytesAdded: 32 }]);
    expect(ref!.memory!.measuredPeakTensorBytes).toBe(64);
    expect(ref!.leak).toEqual({ tensorsBefore: 0, tensorsAfter: 0, perRepeat: [0, 0, 0], leaked: false });
    expect(comp!.agreementWithReference!.maxAbsDiff).toBeCloseTo(1e-6, 12);
    expect(outcome.agreementMatrix!.strategies).toEqual(['reference', 'compensated']);
    // each strategy's cold call and warm-ups, then one window per repeat
    expect(outcome.windows.map((w) => w.strategy)).toEqual([...Array(4).fill('reference'), ...Array(4).fill('compensated')]);

    const spans = messages.flatMap((m) => (m.type === 'trace' ? m.records : [])).filter((r): r is SpanRecord => r.ph === 'X');
    const names = spans.map((s) => s.name);
    for (const n of ['run', 'load-data', 'backend-init', 'strategy', 'cold', 'warmup', 'repeat', 'kernel-profile', 'encode', 'decode', 'electrode']) {
      expect(names).toContain(n);
    }
    // the loop's and the engine's repeated spans keep one name; which call or electrode was which is in their args
    // the repeats take turns: reference 1, compensated 1, reference 2…, each under its strategy's span
    const byStart = [...spans].sort((a, b) => a.ts - b.ts);
    expect(byStart.filter((s) => s.name === 'repeat').map((s) => s.args?.repeat)).toEqual([1, 1, 2, 2, 3, 3]);
    expect(byStart.filter((s) => s.name === 'strategy').map((s) => s.args?.strategy)).toEqual(
      ['reference', 'compensated', 'reference', 'compensated', 'reference', 'compensated', 'reference', 'compensated'],
    );
    expect(spans.find((s) => s.name === 'strategy')!.args).toEqual({ strategy: 'reference' });
    expect(names.every((n) => !/\d/.test(n))).toBe(true);
    // repeats' stages come from the engine's own spans, not the loop's
    expect(ref!.stages.map((s) => s.name)).toContain('decode');
    expect(ref!.stages.map((s) => s.name)).not.toContain('repeat');
    expect(ref!.stages.find((s) => s.name === 'decode')!.calls).toBe(3);
  });

  it('samples tensor memory inside spans, while the model is alive, not only at unit boundaries where it is freed', async () => {
    // each electrode holds the loop ~45 ms, longer than the sampler's interval, as wasm compute does
    const { run, messages } = await runFake(['reference'], { busyMsPerElectrode: 45 }, { repeats: 1, warmup: 0 });
    await run.done;
    const counters = messages.flatMap((m) => (m.type === 'trace' ? m.records : [])).filter((r) => r.ph === 'C' && r.name === 'tensors');
    const counts = counters.map((r) => (r.ph === 'C' ? r.args.count! : 0));
    expect(Math.max(...counts)).toBe(2);
    expect(counts.filter((c) => c > 0).length).toBeGreaterThan(3);
  });

  it('tells the host which spans are open as they change, and none once the run ended', async () => {
    const { run, messages } = await runFake(['reference'], { busyMsPerElectrode: 5 }, { repeats: 1, warmup: 0 });
    await run.done;
    const lists = messages.flatMap((m) => (m.type === 'open-spans' ? [m.spans.map((s) => s.name)] : []));
    expect(lists.some((names) => names[0] === 'run' && names.includes('strategy'))).toBe(true);
    expect(lists[lists.length - 1]).toEqual([]);
    const open = messages.find((m) => m.type === 'open-spans' && m.spans.length > 0);
    expect(open && open.type === 'open-spans' && open.spans[0]).toMatchObject({ proc: 'engine', tid: 1, name: 'run', args: { runId: 'test' } });
  });

  it('records a throwing strategy as failed and goes on with the next', async () => {
    const { run, messages } = await runFake(['chunked', 'reference'], { failing: ['chunked'] });
    await run.done;
    const [chunked, ref] = outcomeOf(messages).strategies;
    expect(chunked).toMatchObject({ strategy: 'chunked', status: 'failed', error: { message: 'chunked is broken in this test' } });
    expect(ref!.status).toBe('ok');
  });

  it('sees a tensor left behind by every repeat', async () => {
    const { run, messages } = await runFake(['logsumexp'], { leaking: ['logsumexp'] });
    await run.done;
    const leak = outcomeOf(messages).strategies[0]!.leak!;
    expect(leak.perRepeat).toEqual([1, 1, 1]);
    expect(leak.leaked).toBe(true);
  });

  it('charges a leak to the strategy that leaks, though its repeats take turns with another\'s', async () => {
    const { run, messages } = await runFake(['logsumexp', 'reference'], { leaking: ['logsumexp'] });
    await run.done;
    const [leaky, clean] = outcomeOf(messages).strategies;
    expect(leaky!.leak).toMatchObject({ perRepeat: [1, 1, 1], leaked: true });
    expect(clean!.leak).toMatchObject({ perRepeat: [0, 0, 0], leaked: false });
    expect(clean!.leak!.tensorsAfter).toBe(clean!.leak!.tensorsBefore);
  });

  it('writes float32 likelihood files of shape (n_time, n_bins) and (n_time, 1)', async () => {
    const { run, messages } = await runFake(['reference'], {}, { saveLikelihood: true, local: true });
    await run.done;
    const outcome = outcomeOf(messages);
    const { nTime, nBins } = outcome.dataset;
    const npy = parseNpy(await readFile(join(dir, 'likelihood', 'reference.npy')));
    expect(npy.dtype.descr).toBe('<f4');
    expect(npy.shape).toEqual([nTime, nBins]);
    expect(outcome.strategies[0]!.likelihoodFile).toBe('likelihood/reference.npy');
    const local = parseNpy(await readFile(join(dir, 'likelihood', 'local.npy')));
    expect(local.shape).toEqual([nTime, 1]);
    expect(outcome.local!.timing.n).toBe(3);
    const axes = JSON.parse(await readFile(join(dir, 'likelihood', 'axes.json'), 'utf8'));
    expect(axes.binCenters).toHaveLength(nBins);
    expect(axes.time).toHaveLength(nTime);
  });

  it('stops between steps when cancelled and says so instead of reporting an error', async () => {
    const { run, messages } = await runFake(['reference', 'compensated'], { busyMsPerElectrode: 5 });
    run.cancel();
    await run.done;
    expect(messages.some((m) => m.type === 'cancelled')).toBe(true);
    expect(messages.some((m) => m.type === 'result' || m.type === 'error')).toBe(false);
  });

  it('reports a data error as the run error', async () => {
    const messages: EngineToHost[] = [];
    const run = startEngineRun(
      { type: 'start', runId: 't', runDir: dir, originNs: '0',
        config: parseRunConfig({ data: { kind: 'file', path: join(dir, 'missing.npz') } }) },
      fakeEngineDeps(),
      (m) => messages.push(m),
    );
    await run.done;
    const err = messages.find((m) => m.type === 'error');
    expect(err && err.type === 'error' && err.error.message).toMatch(/missing\.npz/);
  });

  it('judges each strategy\'s decoded position against the true one where the data carry it', async () => {
    const { run, messages } = await runFake(['reference', 'compensated']);
    await run.done;
    const [ref, comp] = outcomeOf(messages).strategies;
    // the fake decodes row r at bin r (centres 0.5, 1.5, …) while tiny's animal crosses 0–100 in 50 rows
    expect(ref!.accuracy).toMatchObject({ rows: 50 });
    expect(ref!.accuracy!.medianAbsError).toBeGreaterThan(10);
    expect(comp!.accuracy).toEqual(ref!.accuracy);
  });

  it('leaves accuracy out when no decoding row has a known true position', async () => {
    const deps = fakeEngineDeps();
    deps.loadDataset = async () => {
      const d = makePreset('tiny', { seed: 1 });
      d.decodingPositionTime = Float64Array.of(1000, 1001);
      d.decodingPosition = Float64Array.of(5, 6);
      return d;
    };
    const { run, messages } = runWith(deps, ['reference']);
    await run.done;
    expect(outcomeOf(messages).strategies[0]!.accuracy).toBeUndefined();
  });

  it('sets the local likelihood\'s time against the reference strategy\'s non-local decode', async () => {
    const { run, messages } = await runFake(['compensated', 'reference'], { busyMsPerElectrode: 1 }, { local: true });
    await run.done;
    const outcome = outcomeOf(messages);
    const local = outcome.local as NonNullable<Report['local']>;
    const ref = outcome.strategies.find((s) => s.strategy === 'reference')!;
    expect(local.ratioToNonlocal).toEqual({ against: 'reference', ratio: local.timing.medianMs / ref.decode!.medianMs });
  });

  it('takes the first strategy that decoded for the local ratio when the reference did not', () => {
    const decoded = (strategy: StrategyChoice, medianMs: number, status: StrategyResult['status'] = 'ok'): StrategyResult => ({
      strategy, resolved: [], status, stages: [], kernels: [],
      decode: { firstMs: medianMs, medianMs, meanMs: medianMs, stdMs: 0, samplesMs: [medianMs], minMs: medianMs, maxMs: medianMs, n: 1 },
    });
    const local = { timing: decoded('reference', 30).decode! };
    expect(localRatioToNonlocal(local, [decoded('reference', 5, 'failed'), decoded('chunked', 10), decoded('compensated', 6)]))
      .toEqual({ against: 'chunked', ratio: 3 });
    expect(localRatioToNonlocal(local, [decoded('reference', 5, 'failed')])).toBeUndefined();
  });
});

describe('startEngineRun on the real engine', () => {
  it('decodes the place-tuned preset near the true position', async () => {
    const deps = await realEngineDeps();
    // calibration measures the machine for the roofline, which this test does not read
    const fake = fakeEngineDeps();
    deps.calibrate = (backend, cacheDir, onWarning) => fake.calibrate(backend, cacheDir, onWarning);
    const { run, messages } = runWith(deps, ['reference'], {
      data: { kind: 'preset', name: 'place', seed: 5 }, backend: 'wasm', workers: 1, repeats: 1, warmup: 0, kernelProfile: false,
    });
    await run.done;
    const accuracy = outcomeOf(messages).strategies[0]!.accuracy!;
    expect(accuracy.rows).toBe(201);
    expect(accuracy.shareWithin10).toBeGreaterThan(0.5);
    expect(accuracy.medianAbsError).toBeLessThan(10);
  });
});
