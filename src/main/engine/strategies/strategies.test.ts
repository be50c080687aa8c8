/**
 * The strategies against the float64 oracle and each other on random inputs of several shapes:
 * mark dimensions on both sides of the compensated threshold (8), wide marks, and block, chunk
 * and tile sizes that do not divide the problem.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { STRATEGIES } from '../../../shared/config';
import { CancelledError, engineMemory, fitEncodingModel, initBackend, NULL_PROBE, predictNonlocal, predictNonlocalWindows } from '../index';
import { resolveNldDispatch, type Calibration } from '../model';
import { seriesReach } from '.';
import { countNotClose, smallDataset } from '../testing/builders';
import { oracle } from '../testing/oracle';

/** a made-up backend for auto's cost model: the figures only have to be positive and finite */
const TEST_CALIBRATION: Calibration = {
  backend: 'wasm', device: 'test', matmulGflops: 20, expGelemsPerS: 0.5, logGelemsPerS: 0.5, bandwidthGBps: 10,
  measuredAt: '2026-01-01T00:00:00.000Z', durationMs: 1,
};

beforeAll(async () => {
  await initBackend('wasm');
});

const SHAPES = [
  { name: 'D=1', features: 1, markScale: 30, waveformStd: 24 },
  { name: 'D=3, wide marks', features: 3, markScale: 120, waveformStd: 24 },
  { name: 'D=9 (above the compensated threshold)', features: 9, markScale: 8, waveformStd: 6 },
];
const TILINGS = [
  { blockSize: 3, encTileSize: 5, posTileSize: 7 },
  { blockSize: 100, encTileSize: 1000, posTileSize: 1000 },
];

describe('strategies agree with the float64 oracle', () => {
  for (const shape of SHAPES) {
    for (const tiling of TILINGS) {
      it(`${shape.name}, B=${tiling.blockSize} C=${tiling.encTileSize} Tp=${tiling.posTileSize}`, async () => {
        const d = smallDataset({
          seed: shape.features * 7 + tiling.blockSize,
          electrodes: [
            { nEnc: 37, nDec: 11, nFeatures: shape.features, markScale: shape.markScale },
            { nEnc: 19, nDec: 14, nFeatures: shape.features, markScale: shape.markScale },
          ],
          waveformStd: shape.waveformStd,
        });
        const o = oracle(d);
        const model = await fitEncodingModel(d);
        try {
          for (const s of [...STRATEGIES, 'auto', 'nld-dispatch'] as const) {
            const r = await predictNonlocal(model, d, s, tiling);
            expect([s, countNotClose(r.logLikelihood, o.nonlocal)]).toEqual([s, 0]);
          }
          // auto by the cost model, where it may pick series
          const r = await predictNonlocal(model, d, 'auto', { ...tiling, calibration: TEST_CALIBRATION });
          expect(['auto, calibrated', countNotClose(r.logLikelihood, o.nonlocal)]).toEqual(['auto, calibrated', 0]);
        } finally {
          model.dispose();
        }
      });
    }
  }
});

describe('nld-dispatch (what auto was before it weighed costs)', () => {
  it('follows the spec dispatch: compensated for D ≤ 8, logsumexp above, streaming when memory is short', () => {
    const sizes = { nEnc: 200, nDec: 100, nBins: 500, positionDims: 1 };
    expect(resolveNldDispatch({ ...sizes, nTime: 0, nFeatures: 4 }, { blockSize: 100 }).strategy).toBe('compensated');
    expect(resolveNldDispatch({ ...sizes, nTime: 0, nFeatures: 9 }, { blockSize: 100 }).strategy).toBe('logsumexp');
    expect(resolveNldDispatch({ ...sizes, nTime: 0, nFeatures: 9 }, { blockSize: 100, memoryBudgetBytes: 8e6 }).strategy).toBe('logsumexp-tiled');
    expect(resolveNldDispatch({ ...sizes, nTime: 0, nFeatures: 4 }, { blockSize: 100, memoryBudgetBytes: 2e5 }).strategy).toBe('streaming');
  });

  it('reports what each electrode ran; auto without a calibration does the same', async () => {
    const d = smallDataset({ electrodes: [{ nEnc: 20, nDec: 5, nFeatures: 2 }, { nEnc: 20, nDec: 5, nFeatures: 9 }] });
    const model = await fitEncodingModel(d);
    const r = await predictNonlocal(model, d, 'nld-dispatch', { blockSize: 4 });
    const uncalibrated = await predictNonlocal(model, d, 'auto', { blockSize: 4 });
    model.dispose();
    expect(r.resolved).toEqual(['compensated', 'logsumexp']);
    expect(uncalibrated.resolved).toEqual(['compensated', 'logsumexp']);
    expect(uncalibrated.resolvedReasons?.every((why) => why.startsWith('no backend calibration'))).toBe(true);
  });
});

describe('auto by the calibrated cost model', () => {
  // e0: marks within a fraction of a kernel width, which the series covers; e1: marks spread over
  // many widths, where no order's bound reaches a decoding spike
  const d = smallDataset({
    seed: 3,
    electrodes: [{ nEnc: 200, nDec: 40, nFeatures: 2, markScale: 2 }, { nEnc: 200, nDec: 40, nFeatures: 3, markScale: 120 }],
  });

  it("picks series only where its bound holds, says why, and agrees with the oracle", async () => {
    const model = await fitEncodingModel(d, undefined, { keepPositionKernelBytes: 1 << 24, keepOnlyForSeries: true });
    try {
      const reach = d.electrodes.map((el, e) => seriesReach({
        encMarks: model.electrodes[e]!.encFeatures, nEnc: model.electrodes[e]!.nEnc, waveformStd: model.electrodes[e]!.waveformStd,
        decMarks: el.decodingFeatures, nDec: el.decodingSpikeTimes.length, factorKept: () => false,
      }));
      expect(reach[0]!.nNear).toBeGreaterThan(0);
      expect(reach[1]!.nNear).toBe(0);
      const r = await predictNonlocal(model, d, 'auto', { blockSize: 4, calibration: TEST_CALIBRATION });
      expect(r.resolved).toEqual(['series', 'compensated']);
      expect(r.resolvedReasons![0]).toMatch(/^series .* vs compensated .* predicted/);
      expect(r.resolvedReasons![1]).toContain('series excluded: its error bound covers none');
      expect(countNotClose(r.logLikelihood, oracle(d).nonlocal)).toBe(0);
    } finally {
      model.dispose();
    }
  });
});

describe('tensor hygiene', () => {
  it('fit + predict under every strategy leaves the tensor count where it was', async () => {
    const d = smallDataset();
    const before = engineMemory().numTensors;
    const model = await fitEncodingModel(d);
    for (const s of STRATEGIES) await predictNonlocal(model, d, s, { blockSize: 4, encTileSize: 6, posTileSize: 5 });
    model.dispose();
    expect(engineMemory().numTensors).toBe(before);
  });

  it('a cancelled predict throws CancelledError and leaks nothing', async () => {
    const d = smallDataset();
    const before = engineMemory().numTensors;
    const model = await fitEncodingModel(d);
    for (const s of STRATEGIES) {
      let blocks = 0;
      const controller = new AbortController();
      const probe = { ...NULL_PROBE, span: async <T>(name: string, fn: () => Promise<T> | T) => {
        if (name === 'scatter' && ++blocks >= 2) controller.abort();
        return fn();
      } };
      await expect(predictNonlocal(model, d, s, { blockSize: 4, encTileSize: 6, signal: controller.signal }, probe)).rejects.toBeInstanceOf(CancelledError);
    }
    model.dispose();
    expect(engineMemory().numTensors).toBe(before);
  });
});

describe('windowed predict', () => {
  it('gives the same rows as one full predict, for windows that split spikes on grid points', async () => {
    const { predictNonlocalWindows, windowBounds } = await import('../index');
    expect(windowBounds(10, 4)).toEqual([[0, 4], [4, 8], [8, 10]]);
    expect(windowBounds(9, 4)).toEqual([[0, 4], [4, 9]]);
    const d = smallDataset({ nTime: 23, electrodes: [{ nEnc: 30, nDec: 40, nFeatures: 2 }, { nEnc: 20, nDec: 25, nFeatures: 3 }] });
    // spikes exactly on window edges and on the last grid point
    const el = d.electrodes[0]!;
    el.decodingSpikeTimes = el.decodingSpikeTimes.slice();
    el.decodingSpikeTimes[0] = d.time[5]!;
    el.decodingSpikeTimes[1] = d.time[10]!;
    el.decodingSpikeTimes[2] = d.time[22]!;
    el.decodingSpikeTimes[3] = d.time[21]!;
    const model = await fitEncodingModel(d);
    try {
      const full = await predictNonlocal(model, d, 'compensated', { blockSize: 7 });
      for (const k of [5, 2, 22, 100]) {
        const got = new Float64Array(full.logLikelihood.length);
        let covered = 0;
        await predictNonlocalWindows(model, d, 'compensated', { blockSize: 7 }, k, (r0, rows, values) => {
          got.set(values, r0 * full.nBins);
          covered += rows;
        });
        expect(covered).toBe(d.time.length);
        expect([k, countNotClose(got, full.logLikelihood, 1e-6, 1e-6)]).toEqual([k, 0]);
      }
    } finally {
      model.dispose();
    }
  });
});

describe('position kernels kept across the windows of a decode', () => {
  it('builds each electrode’s position kernel once for all windows, frees it with the model, and recomputes past the budget', async () => {
    const d = smallDataset();
    const before = engineMemory().numTensors;
    for (const budget of [undefined, 1]) {
      const model = await fitEncodingModel(d);
      const builtFor: string[] = [];
      const recomputed: string[] = [];
      let electrode = '';
      const probe = {
        ...NULL_PROBE,
        span: async <T>(name: string, fn: () => Promise<T> | T, args?: Record<string, unknown>) => {
          if (name === 'electrode') electrode = String(args?.electrodeIndex);
          if (name === 'position-kernel') builtFor.push(electrode);
          return fn();
        },
        instant: (name: string) => void recomputed.push(name),
      };
      // one predict per window (no batches), so that every window after the first can reuse or rebuild
      const options = { blockSize: 4, memoryBudgetBytes: budget, windowBatchBytes: 1 };
      const windows = await predictNonlocalWindows(model, d, 'reference', options, 7, () => undefined, probe);
      expect(windows.windows).toBeGreaterThan(1);
      expect(builtFor.length).toBeGreaterThan(0);
      if (budget === undefined) {
        // within the budget: once per electrode however many windows it has spikes in
        expect(new Set(builtFor).size).toBe(builtFor.length);
        expect(recomputed).toEqual([]);
      } else {
        // past it: built again in a later window, and the trace says so each time
        expect(new Set(builtFor).size).toBeLessThan(builtFor.length);
        expect(recomputed).toHaveLength(builtFor.length);
      }
      model.dispose();
      expect(engineMemory().numTensors).toBe(before);
    }
  });
});

describe('windows decoded in batches', () => {
  it('hands every window to the caller in order with the rows of a decode window by window, bit for bit', async () => {
    const d = smallDataset();
    const model = await fitEncodingModel(d);
    try {
      const run = async (windowBatchBytes: number | undefined) => {
        const got: { start: number; rows: number; values: number[] }[] = [];
        const spans: string[] = [];
        const probe = { ...NULL_PROBE, span: async <T>(name: string, fn: () => Promise<T> | T) => (spans.push(name), fn()) };
        const summary = await predictNonlocalWindows(model, d, 'reference', { blockSize: 4, windowBatchBytes }, 7, (start, rows, values) => {
          got.push({ start, rows, values: Array.from(values) });
        }, probe);
        return { got, summary, predicts: spans.filter((n) => n === 'windows') };
      };
      const single = await run(1);
      const batched = await run(undefined);
      expect(single.predicts.length).toBe(single.got.length);
      expect(batched.predicts).toHaveLength(1);
      expect(batched.summary.windows).toBe(single.summary.windows);
      // a time for each batch, not each window: a batch's windows are handed over back to back
      expect(single.summary.batches.map((b) => b.rows)).toEqual(single.got.map((w) => w.rows));
      expect(batched.summary.batches.map((b) => b.rows)).toEqual([d.time.length]);
      expect(batched.summary.batches[0]!.ms).toBeGreaterThan(0);
      expect(batched.got.map((w) => [w.start, w.rows])).toEqual(single.got.map((w) => [w.start, w.rows]));
      // the reference's spike terms do not depend on which spikes share a block
      batched.got.forEach((w, i) => expect(w.values).toEqual(single.got[i]!.values));
    } finally {
      model.dispose();
    }
  });
});
