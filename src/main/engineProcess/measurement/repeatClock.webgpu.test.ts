/**
 * A run's warm repeats on webgpu (lavapipe here) run as a decode does: no device wait at each
 * stage, the rows summed on the device and read back once, so a repeat makes as few readbacks as
 * the decode's path; the likelihood stays within the float64 reference's tolerance; and the stage
 * table says where its times came from (the GPU's timestamps, the host's queueing time beside).
 * Skips, saying why, without an adapter.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../shared/config';
import type { TraceRecord } from '../../../shared/events';
import { loadNpz } from '../../data';
import { activitySince, gpuActivity, listBackends, type GpuActivity } from '../../engine';
import { Recorder } from '../../recorder';
import { realEngineDeps, type EngineDeps } from '../session';
import { SpanCollector, type MeasureContext, type MemoryWatch } from './measureContext';
import { ProgressTracker } from './progressTracker';
import { measureStrategies } from './strategyMeasure';

const FIXTURE = fileURLToPath(new URL('../../../../test/fixtures/kde_ref_tiny_seed42_D2.npz', import.meta.url));
const memory: MemoryWatch = { markStage: () => undefined, sampleNow: () => undefined, summary: () => ({ stages: {} }) };

/** Elements of `actual` not allclose to `expected` (rtol 1e-4, atol 1e-4: the parity tolerance). */
function notClose(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  let bad = Math.abs(actual.length - expected.length);
  for (let i = 0; i < expected.length; i++) if (!(Math.abs(actual[i]! - expected[i]!) <= 1e-4 + 1e-4 * Math.abs(expected[i]!))) bad++;
  return bad;
}

/** The real engine, with what the device did in each fit + predict call (from the fit's start to the predict's end). */
function countingCalls(base: EngineDeps): { deps: EngineDeps; calls: GpuActivity[] } {
  const calls: GpuActivity[] = [];
  let start: GpuActivity | null = null;
  const deps: EngineDeps = {
    ...base,
    fitEncodingModel: (...args) => {
      start = gpuActivity();
      return base.fitEncodingModel(...args);
    },
    predictNonlocal: async (...args) => {
      const out = await base.predictNonlocal(...args);
      calls.push(activitySince(start!, gpuActivity()!));
      return out;
    },
  };
  return { deps, calls };
}

describe('a run on webgpu', () => {
  it("times its warm repeats as a decode runs, its stages on the GPU's clock", { timeout: 120_000 }, async (ctx) => {
    const web = (await listBackends()).find((b) => b.name === 'webgpu')!;
    if (!web.available) {
      console.warn(`webgpu run repeats skipped: ${web.detail}`);
      return ctx.skip();
    }
    const base = await realEngineDeps();
    const backend = await base.initBackend('webgpu');
    const dataset = await loadNpz(FIXTURE);
    const { deps, calls } = countingCalls(base);
    const spans = new SpanCollector();
    const config = parseRunConfig({ data: { kind: 'file', path: FIXTURE }, strategies: ['compensated'], repeats: 2, warmup: 1, kernelProfile: false });
    const tracker = new ProgressTracker([{ name: 'compensated', units: 4 }]);
    const records: TraceRecord[] = [];
    const mctx: MeasureContext = {
      deps, dataset, config, tracker, memory, backendName: backend.name,
      rec: new Recorder({ proc: 'engine', onBatch: (batch) => { spans.observe(batch); records.push(...batch); } }),
      spans, options: { blockSize: 16 }, signal: new AbortController().signal, emitProgress: () => undefined,
    };
    const [row] = await measureStrategies(mctx, ['compensated']);

    // the decode's path: fit, then predict with no stage waits
    const before = gpuActivity()!;
    const model = await base.fitEncodingModel(dataset);
    const decoded = await base.predictNonlocal(model, dataset, 'compensated', { blockSize: 16, stageSync: false });
    const decodePath = activitySince(before, gpuActivity()!);
    model.dispose();
    decoded.release?.();

    const repeat = calls[calls.length - 1]!;
    expect(repeat.readbacks).toBeLessThanOrEqual(decodePath.readbacks);
    expect(repeat.readBytes).toBeLessThanOrEqual(decodePath.readBytes);
    expect(notClose(row!.likelihood!, dataset.expected!.logLikelihoodNonlocal!)).toBe(0);

    const stages = row!.result.stages;
    const decode = stages.find((s) => s.name === 'decode')!;
    expect(decode.clock).toBe('gpu');
    expect(decode.hostMs).toBeGreaterThan(0);
    expect(decode.totalMs).toBeGreaterThan(0);
    for (const st of stages.filter((s) => s.clock === 'gpu')) {
      expect(st.hostMs).toBeGreaterThanOrEqual(0);
      expect(st.selfMs).toBeLessThanOrEqual(st.totalMs + 1e-9);
      // every stage's GPU time lies within the decode's or the encode's, which hold all the call's work
      expect(st.totalMs).toBeLessThanOrEqual(decode.totalMs + (stages.find((s) => s.name === 'encode')?.totalMs ?? 0) + 1e-6);
    }
    // the device's passes of the repeats are on the GPU's lane of the trace, not among the stages
    expect(records.some((r) => r.ph === 'X' && r.cat === 'gpu')).toBe(true);
  });
});
