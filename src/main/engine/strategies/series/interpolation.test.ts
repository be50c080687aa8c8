/**
 * The series strategy's interpolated handoff: the bound its cell width rests on, the plan's layout
 * (the position kernel rebuilt from it), and the kernel against the float64 oracle on tetrode-like
 * marks (spread over many widths, so no spike is in the series' reach).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../../../shared/dataset';
import { fitEncodingModel, initBackend, predictNonlocal } from '../../index';
import { electrodeFlushThreshold } from '../../hostMath/kernelNormalisers';
import type { EngineProbe } from '../../model';
import { countNotClose, electrode, normal, rng, smallDataset } from '../../testing/builders';
import { coverageProbe } from '../../testing/coverageProbe';
import { oracle } from '../../testing/oracle';
import { SERIES_RELATIVE_ERROR } from './plan';
import { INTERPOLATION_NODES, INTERPOLATION_REACH, INTERPOLATION_WIDTH, interpolationBound, positionReach, projectionReach } from './interpolationBound';
import {
  interpolationCells, MARK_SCALE, MAX_INTERPOLATION_CELLS, paddedBins, planInterpolation,
} from './interpolationPlan';

beforeAll(async () => {
  await initBackend('wasm');
});

describe('position interpolation bound', () => {
  it('keeps the interpolated kernel within the series error over every bin a cell reaches, and would not with fewer nodes or wider cells', () => {
    expect(interpolationBound(INTERPOLATION_NODES, INTERPOLATION_WIDTH, INTERPOLATION_REACH)).toBeLessThanOrEqual(SERIES_RELATIVE_ERROR);
    expect(interpolationBound(INTERPOLATION_NODES - 2, INTERPOLATION_WIDTH, INTERPOLATION_REACH)).toBeGreaterThan(SERIES_RELATIVE_ERROR);
    expect(interpolationBound(INTERPOLATION_NODES, 2 * INTERPOLATION_WIDTH, INTERPOLATION_REACH)).toBeGreaterThan(SERIES_RELATIVE_ERROR);
  });
});

describe('planInterpolation', () => {
  it('lays out marks, projection bounds, Lagrange weights and node kernels that give back every reached kernel entry within the bound', () => {
    const r = rng(3);
    const std = 6;
    const nEnc = 403;
    const D = 3;
    const positions = Float64Array.from({ length: nEnc }, () => 200 * r());
    const marks = Float64Array.from({ length: nEnc * D }, () => 100 * normal(r));
    // 50 bins, not a multiple of 4: the last vector is padding
    const centers = Float64Array.from({ length: 50 }, (_, p) => 2 + 4 * p);
    const waveformStd = [24, 30, 12];
    const plan = planInterpolation(positions, marks, nEnc, D, centers, std, waveformStd);
    const { cells, binVectors } = plan.size;
    expect(binVectors * 4).toBe(paddedBins(50));
    const vecFloats = 4 * (D + 8);
    const seen = new Uint8Array(nEnc);
    let checked = 0;
    for (let c = 0; c < cells; c++) {
      const [v0, v1, p0, p1, hAt] = plan.chunks.subarray(5 * c, 5 * c + 5) as unknown as number[];
      for (let v = v0!; v < v1!; v++) {
        for (let lane = 0; lane < 4; lane++) {
          const at = v * vecFloats + lane;
          const L = Array.from({ length: 8 }, (_, j) => plan.spikes[at + 4 * (D + j)]!);
          if (L.every((l) => l === 0)) continue; // padding
          // the spike: the one whose scaled marks these are
          const i = Array.from({ length: nEnc }, (_, k) => k).find(
            (k) => !seen[k] && [0, 1, 2].every((d) => plan.spikes[at + 4 * d] === Math.fround(Math.fround(marks[k * D + d]!) * Math.fround(MARK_SCALE / waveformStd[d]!))),
          );
          expect(i, `cell ${c}, vector ${v}, lane ${lane}`).toBeDefined();
          // the vector's bounds hold this spike's projection, and run monotone through the cell
          const proj = [0, 1, 2].reduce((sum, d) => sum + plan.direction[d]! * plan.spikes[at + 4 * d]!, 0);
          expect(plan.bounds[2 * v]!).toBeGreaterThanOrEqual(proj - 1e-5);
          expect(plan.bounds[2 * v + 1]!).toBeLessThanOrEqual(proj + 1e-5);
          if (v > v0!) {
            expect(plan.bounds[2 * v]!).toBeGreaterThanOrEqual(plan.bounds[2 * v - 2]!);
            expect(plan.bounds[2 * v + 1]!).toBeGreaterThanOrEqual(plan.bounds[2 * v - 1]!);
          }
          seen[i!] = 1;
          expect(L.reduce((s, l) => s + l, 0)).toBeCloseTo(1, 5);
          for (let pv = p0!; pv < p1!; pv++) {
            for (let bl = 0; bl < 4; bl++) {
              const p = 4 * pv + bl;
              const h = (j: number): number => plan.h[hAt! + 32 * (pv - p0!) + 4 * j + bl]!;
              if (p >= 50) {
                expect(Array.from({ length: 8 }, (_, j) => h(j))).toEqual(new Array(8).fill(0));
                continue;
              }
              const z = (positions[i!]! - centers[p]!) / std;
              const exact = Math.exp(-0.5 * z * z);
              if (Array.from({ length: 8 }, (_, j) => h(j)).every((v) => v === 0)) {
                // beyond the cell's reach: dropped only where the entry is below 2^−63
                expect(exact, `spike ${i}, bin ${p}`).toBeLessThan(2 ** -63);
                continue;
              }
              const approx = L.reduce((s, l, j) => s + l * h(j), 0) / 2 ** 64;
              // the bound, and float32 rounding of the weights and node values (with the Lebesgue constant and the node values' spread)
              expect(Math.abs(approx - exact) / exact, `spike ${i}, bin ${p}`).toBeLessThan(SERIES_RELATIVE_ERROR + 2e-6);
              checked++;
            }
          }
        }
      }
    }
    expect(Array.from(seen).every((s) => s === 1)).toBe(true);
    expect(Math.hypot(...plan.direction)).toBeCloseTo(1, 6);
    expect(checked).toBeGreaterThan(nEnc * 20);
  });
});

describe('reaches from the flush bound', () => {
  it('drop position and mark terms below the same τ, as far as model/flush.ts allows and never farther than 2^−63 would', () => {
    const tetrode = [24, 24, 24, 24];
    // at a production tetrode's largest bias (~3) the bound allows τ ≈ 2^−47
    const bins = positionReach(electrodeFlushThreshold([6], tetrode, 3));
    const marks = projectionReach(electrodeFlushThreshold([6], tetrode, 3));
    expect(bins).toBeLessThan(INTERPOLATION_REACH);
    expect(Math.exp(-0.5 * bins * bins)).toBeCloseTo(2 ** -(marks * marks), 25);
    // where it allows less than 2^−63 (a large bias: the handoff does not run there) both stop at 2^−63
    expect(positionReach(electrodeFlushThreshold([6], tetrode, 20))).toBeCloseTo(INTERPOLATION_REACH, 12);
    expect(projectionReach(electrodeFlushThreshold([6], tetrode, 20))).toBeCloseTo(Math.sqrt(63), 12);
  });

  it('stores no bin beyond a shorter reach', () => {
    const r = rng(9);
    const positions = Float64Array.from({ length: 200 }, () => 200 * r());
    const marks = Float64Array.from({ length: 400 }, () => 100 * normal(r));
    const centers = Float64Array.from({ length: 100 }, (_, p) => 1 + 2 * p);
    const full = planInterpolation(positions, marks, 200, 2, centers, 6, [24, 24]);
    const short = planInterpolation(positions, marks, 200, 2, centers, 6, [24, 24], 6);
    expect(short.size.storedBinVectors).toBeLessThan(full.size.storedBinVectors);
    // every stored node value of the short plan belongs to a bin within 6 widths of its cell
    for (let c = 0; c < short.size.cells; c++) {
      const [, , p0, p1, hAt] = short.chunks.subarray(5 * c, 5 * c + 5) as unknown as number[];
      const nonzero = Array.from(short.h.subarray(hAt!, hAt! + 32 * (p1! - p0!))).filter((v) => v !== 0).length;
      expect(nonzero).toBeGreaterThan(0);
      // a node value below e^{−(6 + width)²/2}·2^64 would mean a bin beyond the reach
      expect(Math.min(...Array.from(short.h.subarray(hAt!, hAt! + 32 * (p1! - p0!))).filter((v) => v !== 0))).toBeGreaterThan(
        2 ** 64 * Math.exp(-0.5 * (6 + INTERPOLATION_WIDTH) ** 2) * 0.99,
      );
    }
  });
});

describe('planInterpolation over a wide range', () => {
  it('numbers only the cells that hold spikes, and refuses a range of more cells than it may span', () => {
    // two clusters 200 000 widths apart: a million cells of 0.2 widths, two of them held
    const std = 1;
    const positions = Float64Array.from({ length: 40 }, (_, i) => (i < 20 ? i * 0.01 : 200_000 + i * 0.01));
    const marks = Float64Array.from({ length: 40 * 2 }, (_, i) => i % 7);
    const centers = Float64Array.from({ length: 8 }, (_, p) => p);
    expect(interpolationCells(positions, 40, std)).toBe(Math.floor(200_000.39 / INTERPOLATION_WIDTH) + 1);
    const plan = planInterpolation(positions, marks, 40, 2, centers, std, [1, 1]);
    // the far cluster reaches no bin, the near one fits in its first cells
    expect(plan.size.cells).toBeLessThanOrEqual(2);
    expect(plan.size.spikeVectors).toBe(5);
    const tooWide = Float64Array.of(0, (MAX_INTERPOLATION_CELLS + 1) * INTERPOLATION_WIDTH);
    expect(interpolationCells(tooWide, 2, std)).toBeGreaterThan(MAX_INTERPOLATION_CELLS);
    expect(() => planInterpolation(tooWide, Float64Array.of(0, 0), 2, 1, centers, std, [1])).toThrow(/more than/);
  });
});

/** Tetrode-like electrodes on a 100 cm track: marks N(0, 150²) against σ = 24, so no decoding spike is in the series' reach. */
function tetrodes(bins: number): Dataset {
  const d = smallDataset({ seed: 31, bins: Array.from({ length: bins }, (_, j) => ((j + 0.5) * 100) / bins), positionStd: 6, nPos: 400 });
  const r = rng(32);
  d.electrodes = [
    electrode(r, { nEnc: 900, nDec: 40, nFeatures: 4, markScale: 150 }, 'tetrode', 10, 4),
    electrode(r, { nEnc: 300, nDec: 25, nFeatures: 2, markScale: 60 }, 'stereotrode', 10, 4),
  ];
  return d;
}

describe('series strategy, interpolated handoff', () => {
  for (const bins of [48, 37]) {
    it(`agrees with the float64 oracle and with compensated where no spike is in the series' reach (${bins} bins)`, async () => {
      const d = tetrodes(bins);
      const o = oracle(d);
      const model = await fitEncodingModel(d);
      try {
        const { probe, seen } = coverageProbe();
        const series = await predictNonlocal(model, d, 'series', { blockSize: 16 }, probe);
        const compensated = await predictNonlocal(model, d, 'compensated', { blockSize: 16 });
        expect(seen.map((c) => [c.series, c.directBy])).toEqual([[0, 'compensated, position interpolated'], [0, 'compensated, position interpolated']]);
        expect(countNotClose(series.logLikelihood, o.nonlocal, 1e-5, 1e-5)).toBe(0);
        expect(countNotClose(series.logLikelihood, compensated.logLikelihood, 1e-5, 1e-5)).toBe(0);
        // rows that say something about position (not a floor everywhere): the comparison has entries to fail on
        const informative = Array.from({ length: d.time.length }, (_, t) => o.nonlocal.subarray(t * bins, (t + 1) * bins)).filter(
          (row) => Math.max(...row) - Math.min(...row) > 1,
        );
        expect(informative.length).toBeGreaterThan(d.time.length / 2);
      } finally {
        model.dispose();
      }
    });
  }

  it('leaves an electrode with a non-finite decoding mark to compensated (its NaN rows as compensated gives them)', async () => {
    const d = tetrodes(48);
    d.electrodes[0]!.decodingFeatures[5] = Number.NaN;
    const model = await fitEncodingModel(d);
    try {
      const { probe, seen } = coverageProbe();
      const series = await predictNonlocal(model, d, 'series', { blockSize: 16 }, probe);
      const compensated = await predictNonlocal(model, d, 'compensated', { blockSize: 16 });
      expect(seen.map((c) => c.directBy)).toEqual(['compensated', 'compensated, position interpolated']);
      expect(series.logLikelihood.some(Number.isNaN)).toBe(true);
      expect(countNotClose(series.logLikelihood, compensated.logLikelihood, 1e-5, 1e-5)).toBe(0);
    } finally {
      model.dispose();
    }
  });

  it('counts the weights its rows formed: fewer than every pair, where marks spread over many widths', async () => {
    const d = tetrodes(48);
    d.electrodes = [d.electrodes[0]!];
    const model = await fitEncodingModel(d);
    try {
      const exps: number[] = [];
      const probe: EngineProbe = {
        span: async (name, fn, args) => {
          const out = await fn();
          if (name === 'reduce') exps.push((args as { work: { exps: number } }).work.exps);
          return out;
        },
        counter: () => undefined,
        instant: () => undefined,
        progress: () => undefined,
      };
      await predictNonlocal(model, d, 'series', { blockSize: 16 }, probe);
      const pairs = model.electrodes[0]!.nEnc * d.electrodes[0]!.decodingSpikeTimes.length;
      const formed = exps.reduce((a, b) => a + b, 0);
      expect(exps.length).toBe(Math.ceil(d.electrodes[0]!.decodingSpikeTimes.length / 16));
      expect(formed).toBeGreaterThan(0);
      expect(formed).toBeLessThan(pairs);
    } finally {
      model.dispose();
    }
  });

  it('gives the same bits on a second call, with the plan kept with the model', async () => {
    const d = tetrodes(48);
    const model = await fitEncodingModel(d);
    try {
      const options = { blockSize: 8, positionKernelBudgetBytes: 1 << 24 };
      const first = await predictNonlocal(model, d, 'series', options);
      const second = await predictNonlocal(model, d, 'series', options);
      expect(Array.from(second.logLikelihood)).toEqual(Array.from(first.logLikelihood));
    } finally {
      model.dispose();
    }
  });
});
