import { describe, expect, it } from 'vitest';
import type { RunConfig } from '../../../shared/config';
import type { DatasetSummary } from '../../../shared/dataset';
import type { Calibration } from '../../../shared/roofline';
import {
  addWork, copy, finishCompensatedWork, foldCompensatedWork, gemm, logKdeWork, logKernelDirectWork, NO_WORK, pieces, scaleWork, seriesFactorWork,
  seriesTermsWork, totalFlops, type Work,
} from './opWork';
import { rooflineEntry, rooflineOfResult, strategyRoofline } from './roofline';
import { callStageWork, predictStageWork } from './stageWork';

function dataset(electrodes: { nEnc: number; nDec: number; nFeatures: number }[], over: Partial<DatasetSummary> = {}): DatasetSummary {
  return {
    name: 'tiny', source: 'test', nElectrodes: electrodes.length,
    electrodes: electrodes.map((e, i) => ({ name: `e${i}`, nFeatures: e.nFeatures, nEncodingSpikes: e.nEnc, nDecodingSpikes: e.nDec })),
    nEncodingSpikes: electrodes.reduce((s, e) => s + e.nEnc, 0), nDecodingSpikes: electrodes.reduce((s, e) => s + e.nDec, 0),
    nPositionSamples: 10, positionDims: 1, positionRange: [0, 1], timeSpan: [0, 1], nTime: 5, nBins: 4, featureDims: [1],
    positionStd: [1], waveformStd: 1, blockSize: 2, hasExpected: false, notes: [], ...over,
  };
}

const calibration: Calibration = {
  backend: 'wasm', device: 'test', matmulGflops: 1, expGelemsPerS: 0.5, logGelemsPerS: 0.25, bandwidthGBps: 2,
  measuredAt: '2024-01-01T00:00:00.000Z', durationMs: 1,
};

const sizes = (nEnc: number, nDec: number, nFeatures = 1) => ({ nEnc, nDec, nBins: 4, nFeatures, positionDims: 1, nTime: 5 });

describe('op work', () => {
  it('counts the direct-difference kernel op by op', () => {
    // n = 2, m = 3, d = 1: a/σ (2 flops, 3 in + 2 out), b/σ (3, 4 + 3), squared difference (12, 5 + 6),
    // sum (6, 6 + 6), × −½ and + c (6 + 6, 2 × (6 + 6)) → 35 flops, 59 floats = 236 bytes
    const w = logKernelDirectWork(2, 3, 1);
    expect(w).toEqual({ gemmFlops: 0, otherFlops: 35, exps: 0, logs: 0, bytes: 236, streamBytes: 236 });
  });

  it('counts a GEMM as 2mkn flops and its three operands', () => {
    expect(gemm(2, 3, 4)).toEqual({ ...NO_WORK, gemmFlops: 48, bytes: 4 * (6 + 12 + 8) });
  });

  it('splits a range into full pieces and one remainder', () => {
    expect(pieces(7, 3)).toEqual([{ length: 3, count: 2 }, { length: 1, count: 1 }]);
    expect(pieces(6, 3)).toEqual([{ length: 3, count: 2 }]);
    expect(pieces(2, 5)).toEqual([{ length: 2, count: 1 }]);
    expect(pieces(0, 5)).toEqual([]);
  });

  it('merges the fit KDE tile by tile', () => {
    // m = 2^17 points: tiles of 2 samples, so 3 samples are 2 tiles and 1 merge;
    // exps: 3·m in the tiles + 2·m in the merge
    const m = 1 << 17;
    expect(logKdeWork(3, m, 1).exps).toBe(5 * m);
    expect(logKdeWork(0, m, 1)).toEqual(NO_WORK);
  });
});

describe('stage work', () => {
  it('reference: exp of the position kernel once, one GEMM per block', () => {
    // E = 2, S = 3, P = 4, D = Q = 1, B = 2 → blocks of 2 and 1
    const w = predictStageWork('reference', sizes(2, 3), { blockSize: 2, encTileSize: 2, posTileSize: 4 });
    // position kernel: direct kernel (46 flops, 304 bytes) + exp of 8 (64 bytes)
    expect(w['position-kernel']).toEqual({ gemmFlops: 0, otherFlops: 46, exps: 8, logs: 0, bytes: 368, streamBytes: 304 });
    // reduce, block of b: GEMM 16b flops and 4(6b + 8) bytes, ÷E and log over 4b, + bias (4(8b + 4) bytes), floor
    // b = 2: 32 gemm, 24 other, 8 logs, 352 bytes (208 elementwise); b = 1: 16, 12, 4, 200 (112)
    expect(w.reduce).toEqual({ gemmFlops: 48, otherFlops: 36, exps: 0, logs: 12, bytes: 552, streamBytes: 320 });
    // 12 terms scattered: 2 flops and 28 bytes each
    expect(w.scatter).toMatchObject({ otherFlops: 24, bytes: 336 });
    expect(w.occupancy).toEqual(NO_WORK);
  });

  it('chunked: one logsumexp fold per later chunk and block', () => {
    // E = 5 in chunks of 2, 2, 1; S = 3 in blocks of 2, 1; P = Tp = 4 (no position slices)
    const w = predictStageWork('chunked', sizes(5, 3, 9), { blockSize: 2, encTileSize: 2, posTileSize: 4 });
    // logs: b·P per (chunk, block) → 3 · 12; folds of the 2 later chunks → 2 · 12
    expect(w.reduce.logs).toBe(60);
    // exps: b·c·P per (chunk, block) → 5 · 3 · 4; 2 · b·P per fold → 2 · 2 · 12
    expect(w.reduce.exps).toBe(108);
  });

  it('compensated e′: the first chunk starts the fold, later ones rescale it', () => {
    const b = 3;
    const w = predictStageWork('compensated', sizes(5, b), { blockSize: 3, encTileSize: 2, posTileSize: 4 });
    const slices = (c: number) => addWork(copy(b * c), copy(c), copy(c * 4));
    const expected = addWork(
      slices(2), foldCompensatedWork(b, 2, 4, true),
      slices(2), foldCompensatedWork(b, 2, 4, false),
      slices(1), foldCompensatedWork(b, 1, 4, false),
      finishCompensatedWork(b, 4),
    );
    expect(w.reduce).toEqual(expected);
    expect(w.reduce.gemmFlops).toBe(2 * b * 5 * 4);
  });

  it('streaming recomputes the position kernel for every block', () => {
    const tiles = { blockSize: 2, encTileSize: 2, posTileSize: 4 };
    const streaming = predictStageWork('streaming', sizes(5, 3), tiles);
    const chunked = predictStageWork('chunked', sizes(5, 3), tiles);
    expect(streaming['position-kernel']).toEqual(scaleWork(chunked['position-kernel'], 2));
  });

  it('an electrode with nothing to decode or encode does no predict work', () => {
    const tiles = { blockSize: 2, encTileSize: 2, posTileSize: 4 };
    expect(predictStageWork('reference', sizes(0, 3), tiles).reduce).toEqual(NO_WORK);
    expect(predictStageWork('reference', sizes(3, 0), tiles).scatter).toEqual(NO_WORK);
  });

  it('auto works per electrode as the dispatch resolves it', () => {
    const d = dataset([{ nEnc: 5, nDec: 3, nFeatures: 2 }]);
    expect(callStageWork('auto', d, { blockSize: 2 })).toEqual(callStageWork('compensated', d, { blockSize: 2 }));
  });

  it('a call fits occupancy once and the ground process per electrode', () => {
    const d = dataset([{ nEnc: 5, nDec: 3, nFeatures: 1 }, { nEnc: 2, nDec: 0, nFeatures: 1 }]);
    const w = callStageWork('reference', d, { blockSize: 2 });
    expect(w.occupancy).toEqual(logKdeWork(10, 4, 1));
    expect(w['ground-process']).toEqual(addWork(logKdeWork(5, 4, 1), logKdeWork(2, 4, 1)));
  });
});

describe('roofline', () => {
  it('a pure GEMM stage is bounded by the matmul peak', () => {
    const e = rooflineEntry(gemm(100, 100, 100), 0.4, { ...calibration, matmulGflops: 10 });
    expect(e.ceiling).toBe('matmul');
    expect(e.peakGflops).toBeCloseTo(10, 12);
    expect(e.achievedGflops).toBeCloseTo(5, 12); // 2e6 flops in 0.4 ms
    expect(e.fractionOfPeak).toBeCloseTo(0.5, 12);
    expect(e.arithmeticIntensity).toBeCloseTo(2e6 / 120_000, 12);
  });

  it('rates the reference reduce stage of two calls against every ceiling', () => {
    const d = dataset([{ nEnc: 2, nDec: 3, nFeatures: 1 }]);
    const r = strategyRoofline({
      strategy: 'reference', dataset: d, options: { blockSize: 2 }, calibration,
      stages: [
        { name: 'decode', calls: 2, totalMs: 1, selfMs: 0 },
        { name: 'reduce', calls: 4, totalMs: 0.001, selfMs: 0.001 },
      ],
    })!;
    expect(r.stages.map((s) => s.stage)).toEqual(['reduce']);
    const reduce = r.stages[0]!;
    // two calls: 96 GEMM flops (96 ns at 1 GFLOP/s), 24 logs (96 ns at 0.25 G/s), 640 elementwise
    // bytes (320 ns at 2 GB/s) → 512 ns for 192 flops
    expect(reduce.flops).toBe(192);
    expect(reduce.bytes).toBe(1104);
    expect(reduce.ceiling).toBe('memory');
    expect(reduce.peakGflops).toBeCloseTo(0.375, 12);
    expect(reduce.achievedGflops).toBeCloseTo(0.192, 12);
    expect(reduce.fractionOfPeak).toBeCloseTo(0.512, 12);
    expect(reduce.arithmeticIntensity).toBeCloseTo(192 / 1104, 12);
    expect(reduce.calls).toBe(4);
    // the totals are the stages together
    expect(r).toMatchObject({ flops: 192, bytes: 1104, timeMs: 0.001, ceiling: 'memory' });
  });

  it('takes the work a stage counted itself instead of its formulas', () => {
    const d = dataset([{ nEnc: 2, nDec: 3, nFeatures: 1 }]);
    const rate = (work?: Work) => strategyRoofline({
      strategy: 'reference', dataset: d, options: { blockSize: 2 }, calibration,
      stages: [{ name: 'decode', calls: 2, totalMs: 1, selfMs: 0 }, { name: 'reduce', calls: 4, totalMs: 0.001, selfMs: 0.001, ...(work ? { work } : {}) }],
    })!.stages[0]!;
    expect(rate().flops).toBe(192);
    // 40 GEMM flops (40 ns at 1 GFLOP/s) and 100 exps (200 ns at 0.5 G/s): bound by the exps
    const counted = rate({ ...gemm(2, 5, 2), exps: 100 });
    expect(counted.flops).toBe(140);
    expect(counted.bytes).toBe(gemm(2, 5, 2).bytes);
    expect(counted.ceiling).toBe('exp');
  });

  it('series: its predict stages only with the work they counted, the fit stages by the formulas', () => {
    const d = dataset([{ nEnc: 2, nDec: 3, nFeatures: 2 }]);
    const factor = seriesFactorWork(8, 2, 4);
    const terms = seriesTermsWork(3, 8, 4);
    const r = strategyRoofline({
      strategy: 'series', dataset: d, options: { blockSize: 2 }, calibration,
      stages: [
        { name: 'decode', calls: 1, totalMs: 5, selfMs: 0 },
        { name: 'ground-process', calls: 1, totalMs: 1, selfMs: 1 },
        { name: 'series-factor', calls: 1, totalMs: 1, selfMs: 1, work: factor },
        { name: 'reduce', calls: 2, totalMs: 1, selfMs: 1, work: terms },
        // a stage without a count has no formula under series: left out
        { name: 'mark-kernel', calls: 2, totalMs: 1, selfMs: 1 },
      ],
    })!;
    expect(r.stages.map((s) => s.stage)).toEqual(['ground-process', 'series-factor', 'reduce']);
    expect(r.stages[0]!.flops).toBe(totalFlops(logKdeWork(2, 4, 1)));
    expect(r.stages[1]!.flops).toBe(2 * 8 * 2 * 4);
    // Φ·W, then per term the clamp, log, offset, bias and floor
    expect(r.stages[2]!).toMatchObject({ flops: 2 * 3 * 8 * 4 + 4 * 3 * 4 + 3 * 4, ceiling: 'matmul' });
  });

  it('without a bandwidth figure elementwise work is free', () => {
    const { bandwidthGBps: _, ...noBandwidth } = calibration;
    const e = rooflineEntry(addWork(gemm(1, 1, 1), copy(1000)), 1, noBandwidth);
    expect(e.ceiling).toBe('matmul');
    expect(e.peakGflops).toBeCloseTo(2 / 2e-9 / 1e9, 9);
  });

  it('needs the decode calls, and leaves out unmeasured stages', () => {
    const d = dataset([{ nEnc: 2, nDec: 3, nFeatures: 1 }]);
    const base = { strategy: 'reference' as const, dataset: d, options: { blockSize: 2 }, calibration };
    expect(strategyRoofline({ ...base, stages: [{ name: 'reduce', calls: 2, totalMs: 1, selfMs: 1 }] })).toBeUndefined();
    const r = strategyRoofline({
      ...base,
      stages: [
        { name: 'decode', calls: 1, totalMs: 5, selfMs: 0 },
        { name: 'position-kernel', calls: 1, totalMs: 1, selfMs: 1 },
        { name: 'mark-kernel', calls: 2, totalMs: 2, selfMs: 2 },
        { name: 'block 0', calls: 1, totalMs: 3, selfMs: 0 },
      ],
    })!;
    expect(r.stages.map((s) => s.stage)).toEqual(['position-kernel', 'mark-kernel']);
    expect(r.timeMs).toBe(3);
    expect(r.flops).toBe(r.stages[0]!.flops + r.stages[1]!.flops);
    for (const v of [r.achievedGflops, r.peakGflops, r.fractionOfPeak, r.arithmeticIntensity]) expect(Number.isFinite(v)).toBe(true);
  });

  it('a report entry: the run config gives the options; a failed strategy has none', () => {
    const d = dataset([{ nEnc: 2, nDec: 3, nFeatures: 1 }]);
    const config: RunConfig = {
      data: { kind: 'file', path: 'tiny.npz' }, backend: 'wasm', strategies: ['reference'], repeats: 1, warmup: 0, local: false, saveLikelihood: false, trace: true,
    };
    const stages = [{ name: 'decode', calls: 1, totalMs: 5, selfMs: 0 }, { name: 'reduce', calls: 2, totalMs: 1, selfMs: 1 }];
    expect(rooflineOfResult({ strategy: 'reference', status: 'failed', stages }, d, config, calibration)).toBeUndefined();
    const r = rooflineOfResult({ strategy: 'reference', status: 'ok', stages }, d, config, calibration)!;
    // blockSize from the dataset (2): the same reduce work as above, one call
    expect(r.stages[0]!.flops).toBe(96);
  });
});

describe('counted stages', () => {
  it('puts the posterior filter and smoother in the roofline with the work their spans counted', () => {
    const work: Work = { ...NO_WORK, otherFlops: 4e6, exps: 1e4, bytes: 8e6, streamBytes: 6e6 };
    const roofline = strategyRoofline({
      strategy: 'reference',
      stages: [
        { name: 'decode', calls: 1, totalMs: 20, selfMs: 1 },
        { name: 'filter', calls: 3, totalMs: 4, selfMs: 4, work },
        { name: 'smooth', calls: 3, totalMs: 6, selfMs: 6 },
      ],
      dataset: dataset([{ nEnc: 2, nDec: 3, nFeatures: 1 }]),
      options: { blockSize: 2, encTileSize: 2, posTileSize: 4 },
      calibration,
    })!;
    const filter = roofline.stages.find((s) => s.stage === 'filter')!;
    expect(filter.flops).toBe(totalFlops(work));
    expect(filter.timeMs).toBe(4);
    // a stage whose spans did not count their work has no formula to fall back on: it is left out
    expect(roofline.stages.some((s) => s.stage === 'smooth')).toBe(false);
  });
});
