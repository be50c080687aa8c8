/**
 * The pool's promise: the likelihood is bitwise the same whether one thread computes every
 * electrode or N workers share them, for whole grids and windowed decodes, and the workers'
 * tensors are freed with the model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../../shared/dataset';
import type { SpanRecord, TraceRecord } from '../../../shared/events';
import { ELECTRODE_INDEX_ARG, ELECTRODE_SPAN } from '../../../shared/traceSpans';
import type { EncodingModel, NonlocalPlan } from '../../engine';
import type { EngineDeps } from '../session/engineDeps';
import { NULL_PROBE, type Calibration } from '../../engine/model';
import { fitOptionsFor } from '../measurement/fitOptions';
import { realEngineDeps } from '../session/realDeps';
import { EnginePool } from './enginePool';
import { poolEngineDeps } from './poolDeps';
import { poolExecutor } from './poolExecutor';
import { ProfileCollector, type PoolModel } from './poolModel';

let base: EngineDeps;
let dataset: Dataset;
const pools: EnginePool[] = [];

async function pooled(workers: number): Promise<EngineDeps> {
  const pool = await EnginePool.start({ workers, backend: 'wasm', originNs: String(process.hrtime.bigint()), trace: false, onRecords: () => undefined });
  pools.push(pool);
  return poolEngineDeps(base, pool);
}

async function likelihood(deps: EngineDeps, strategy: 'reference' | 'compensated' | 'auto', keepPositionKernelBytes = 0): Promise<Float64Array> {
  const model = await deps.fitEncodingModel(dataset, undefined, { keepPositionKernelBytes });
  try {
    return (await deps.predictNonlocal(model, dataset, strategy, { blockSize: 7 })).logLikelihood;
  } finally {
    model.dispose();
  }
}

beforeAll(async () => {
  base = await realEngineDeps();
  await base.initBackend('wasm');
  dataset = await base.loadDataset({ kind: 'preset', name: 'small', seed: 11, features: 3, featureScale: 1 });
}, 60_000);

afterAll(async () => {
  await Promise.all(pools.map((p) => p.terminate()));
});

describe('engine pool', () => {
  it('gives bitwise the same likelihood for 1, 2 and 3 workers', async () => {
    const deps = [await pooled(2), await pooled(3)];
    for (const strategy of ['reference', 'compensated', 'auto'] as const) {
      const one = await likelihood(base, strategy);
      for (const d of deps) expect(Buffer.from((await likelihood(d, strategy)).buffer).equals(Buffer.from(one.buffer))).toBe(true);
    }
  }, 120_000);

  it("reports the same auto choices and reasons as one thread, the workers' reach weighed once on the main thread", async () => {
    const calibration: Calibration = {
      backend: 'wasm', device: 'test', matmulGflops: 20, expGelemsPerS: 0.5, logGelemsPerS: 0.5, bandwidthGBps: 10, measuredAt: '2026-01-01T00:00:00.000Z', durationMs: 1,
    };
    const choices = async (deps: EngineDeps) => {
      const model = await deps.fitEncodingModel(dataset, undefined, fitOptionsFor('auto', undefined));
      try {
        const r = await deps.predictNonlocal(model, dataset, 'auto', { blockSize: 7, calibration });
        return { resolved: r.resolved, reasons: r.resolvedReasons, ll: Buffer.from(r.logLikelihood.buffer) };
      } finally {
        model.dispose();
      }
    };
    const one = await choices(base);
    const two = await choices(await pooled(2));
    expect(one.resolved).toContain('series');
    expect(two.resolved).toEqual(one.resolved);
    expect(two.reasons).toEqual(one.reasons);
    expect(two.ll.equals(one.ll)).toBe(true);
  }, 120_000);

  it('runs exactly the plan it is given: the workers compute the strategy the plan names for each electrode and choose none', async () => {
    const engine = await import('../../engine');
    const records: TraceRecord[] = [];
    const pool = await EnginePool.start({ workers: 2, backend: 'wasm', originNs: String(process.hrtime.bigint()), trace: true, onRecords: (r) => void records.push(...r) });
    pools.push(pool);
    const deps = await poolEngineDeps(base, pool);
    const pooledModel = await deps.fitEncodingModel(dataset) as PoolModel;
    const oneModel = await base.fitEncodingModel(dataset) as unknown as EncodingModel;
    try {
      const executor = poolExecutor(pool, pooledModel, new ProfileCollector());
      const asked = await engine.planNonlocal(executor, dataset, 'reference', { blockSize: 7 });
      // a plan no dispatch would make: strategies that differ from electrode to electrode, with reasons of the plan's own
      const given = ['streaming', 'compensated', 'logsumexp'] as const;
      const plan: NonlocalPlan = {
        ...asked,
        strategy: 'auto',
        electrodes: asked.electrodes.map((p, e) => ({ ...p, choice: { strategy: given[e % given.length]!, reason: `given to electrode ${e}` } })),
      };
      const pooled = await engine.runNonlocalPlan(executor, plan, { blockSize: 7 });
      const one = await engine.runNonlocalPlan(engine.inThreadExecutor(oneModel), plan, { blockSize: 7 });
      expect(pooled.resolved).toEqual(plan.electrodes.map((p) => p.choice.strategy));
      expect(pooled.resolvedReasons).toEqual(plan.electrodes.map((p) => p.choice.reason));
      const bytes = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
      expect(bytes(pooled.logLikelihood).equals(bytes(one.logLikelihood))).toBe(true);
      // what each worker's electrode span says it ran
      const ran = new Map<number, unknown>();
      for (const r of records) {
        if (r.ph === 'X' && r.name === ELECTRODE_SPAN && (r as SpanRecord).args?.strategy !== undefined) ran.set((r as SpanRecord).args![ELECTRODE_INDEX_ARG] as number, (r as SpanRecord).args!.strategy);
      }
      const withTerms = plan.electrodes.filter((p) => p.kind === 'terms');
      expect(withTerms.length).toBeGreaterThan(1);
      expect(withTerms.map((p) => ran.get(p.electrode))).toEqual(withTerms.map((p) => p.choice.strategy));
    } finally {
      pooledModel.dispose();
      oneModel.dispose();
    }
  }, 120_000);

  it('shares the occupancy between the workers part by part and still gives the same bits', async () => {
    // 4 000 position samples: four parts of the occupancy sum, split 2/2 and 1/1/2 between the workers
    const n = 4000;
    const t0 = dataset.positionTime[0]!;
    const t1 = dataset.positionTime[dataset.positionTime.length - 1]!;
    const positionTime = Float64Array.from({ length: n }, (_, i) => t0 + ((t1 - t0) * i) / (n - 1));
    const position = Float64Array.from(positionTime, (t) => {
      let j = 0;
      while (j < dataset.positionTime.length - 2 && dataset.positionTime[j + 1]! < t) j++;
      const [ta, tb] = [dataset.positionTime[j]!, dataset.positionTime[j + 1]!];
      const [xa, xb] = [dataset.position[j]!, dataset.position[j + 1]!];
      return xa + ((xb - xa) * (t - ta)) / (tb - ta);
    });
    const dense: Dataset = { ...dataset, positionTime, position };
    const occupancyOf = async (deps: EngineDeps) => {
      const model = await deps.fitEncodingModel(dense, undefined, {});
      try {
        return Float64Array.from(model.occupancy);
      } finally {
        model.dispose();
      }
    };
    const one = await occupancyOf(base);
    expect(one.some((v) => v > 0)).toBe(true);
    for (const workers of [2, 3]) expect(Array.from(await occupancyOf(await pooled(workers)))).toEqual(Array.from(one));
  }, 120_000);

  it('gives the same bits whether the fit kept the reference position kernels, all, some or none', async () => {
    const deps = await pooled(2);
    const none = await likelihood(base, 'reference');
    // half of all kernels' bytes: the budget binds, so some electrodes keep theirs and some do not
    const plain = await base.fitEncodingModel(dataset);
    const kernelBytes = (plain as unknown as { electrodes: { nEnc: number }[]; nBins: number });
    const total = kernelBytes.electrodes.reduce((n, f) => n + f.nEnc * kernelBytes.nBins * 4, 0);
    plain.dispose();
    let notKept = 0;
    const probe = { ...NULL_PROBE, instant: (name: string) => void (name === 'position-kernel not kept' && notKept++) };
    const model = await base.fitEncodingModel(dataset, probe, { keepPositionKernelBytes: total / 2 });
    model.dispose();
    expect(notKept).toBeGreaterThan(0);
    expect(notKept).toBeLessThan(dataset.electrodes.length);
    for (const budget of [2 ** 40, total / 2]) {
      for (const d of [base, deps]) expect(Buffer.from((await likelihood(d, 'reference', budget)).buffer).equals(Buffer.from(none.buffer))).toBe(true);
    }
  }, 120_000);

  it('gives the same windowed decode as one thread, window by window', async () => {
    const deps = await pooled(2);
    const windows = async (d: EngineDeps): Promise<Float64Array[]> => {
      const model = await d.fitEncodingModel(dataset);
      const out: Float64Array[] = [];
      try {
        await d.predictNonlocalWindows(model, dataset, 'compensated', { blockSize: 5 }, 17, (_r0, _rows, values) => void out.push(values.slice()));
      } finally {
        model.dispose();
      }
      return out;
    };
    const expected = await windows(base);
    const got = await windows(deps);
    expect(got.length).toBe(expected.length);
    got.forEach((w, i) => expect(Array.from(w)).toEqual(Array.from(expected[i]!)));
  }, 120_000);

  it("gives bitwise the same local likelihood as one thread, each worker on the electrodes it fitted, with progress to the end", async () => {
    const local = async (deps: EngineDeps, fractions: number[] = []) => {
      const model = await deps.fitEncodingModel(dataset);
      const probe = { ...NULL_PROBE, progress: (f: number) => void fractions.push(f) };
      try {
        return await deps.predictLocal(model, dataset, probe);
      } finally {
        model.dispose();
      }
    };
    const one = await local(base);
    expect(one.some((v) => v !== 0)).toBe(true);
    const fractions: number[] = [];
    const two = await local(await pooled(2), fractions);
    expect(Buffer.from(two.buffer).equals(Buffer.from(one.buffer))).toBe(true);
    expect(fractions.at(-1)).toBe(1);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  }, 120_000);

  it("frees the workers' tensors with the model and counts them meanwhile", async () => {
    const deps = await pooled(2);
    const before = deps.engineMemory().numTensors;
    const model = await deps.fitEncodingModel(dataset);
    expect(deps.engineMemory().numTensors).toBeGreaterThan(before);
    await deps.predictNonlocal(model, dataset, 'reference', { blockSize: 10 });
    model.dispose();
    expect(deps.engineMemory().numTensors).toBe(before);
  }, 120_000);

  it('rejects pending calls with CancelledError once terminated', async () => {
    const pool = await EnginePool.start({ workers: 2, backend: 'wasm', originNs: '0', trace: false, onRecords: () => undefined });
    pools.push(pool);
    const deps = await poolEngineDeps(base, pool);
    const fitting = deps.fitEncodingModel(dataset).then(() => 'fitted', (e: unknown) => e);
    await pool.terminate();
    expect(await fitting).toMatchObject({ code: 'CANCELLED' });
  }, 60_000);

  it('fails the call with the worker and its reason when a worker dies', async () => {
    const pool = await EnginePool.start({ workers: 2, backend: 'wasm', originNs: '0', trace: false, onRecords: () => undefined });
    pools.push(pool);
    const deps = await poolEngineDeps(base, pool);
    const fitting = deps.fitEncodingModel(dataset).then(() => 'fitted', (e: unknown) => e);
    // a worker that ends on its own, as one killed by the system would
    const threads = (pool as unknown as { workers: { thread: { terminate(): Promise<number> } }[] }).workers;
    await threads[1]!.thread.terminate();
    expect(await fitting).toMatchObject({ code: 'RUN_FAILED', message: expect.stringMatching(/engine worker 1 exited/) });
  }, 60_000);
});
