/**
 * Each edge case of kde-spec §5 on a small hand-made input, against a float64 oracle written
 * from the spec, under every strategy.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { STRATEGIES } from '../../shared/config';
import type { Dataset } from '../../shared/dataset';
import { EPS, LOG_EPS } from './model';
import { fitEncodingModel, initBackend, predictLocal, predictNonlocal } from './index';
import { spikeRows } from './fit/positionTrack';
import { countNotClose, maxAbsDiff, smallDataset } from './testing/builders';
import { oracle } from './testing/oracle';

const OPTIONS = { blockSize: 4, encTileSize: 7, posTileSize: 6 };

beforeAll(async () => {
  await initBackend('wasm');
});

async function run(d: Dataset, nanPositions: 'drop' | 'propagate' = 'drop') {
  const model = await fitEncodingModel(d, undefined, { nanPositions });
  try {
    const nonlocal: Record<string, Float64Array> = {};
    for (const s of STRATEGIES) nonlocal[s] = (await predictNonlocal(model, d, s, OPTIONS)).logLikelihood;
    const local = await predictLocal(model, d);
    return {
      occupancy: model.occupancy.slice(),
      meanRates: model.meanRates.slice(),
      gpi: model.electrodes.map((e) => e.groundProcessIntensity.slice()),
      summed: model.summedGroundProcessIntensity.slice(),
      nonlocal,
      local,
    };
  } finally {
    model.dispose();
  }
}

function expectMatchesOracle(d: Dataset, r: Awaited<ReturnType<typeof run>>): void {
  const o = oracle(d);
  expect(countNotClose(r.occupancy, o.occupancy)).toBe(0);
  expect(countNotClose(r.summed, o.summedGroundProcessIntensity)).toBe(0);
  for (const s of STRATEGIES) expect([s, countNotClose(r.nonlocal[s]!, o.nonlocal)]).toEqual([s, 0]);
  expect(countNotClose(r.local, o.local, 1e-4, 1e-4)).toBe(0);
}

describe('kde-spec §5 edge cases', () => {
  it('ordinary data matches the oracle under every strategy', async () => {
    const d = smallDataset();
    expectMatchesOracle(d, await run(d));
  });

  it('an electrode with zero encoding spikes: μ = 0, Λ_e = EPS, each of its spikes adds LOG_EPS to its row', async () => {
    const d = smallDataset({ electrodes: [{ nEnc: 0, nDec: 6, nFeatures: 2 }] });
    const r = await run(d);
    expect(r.meanRates[0]).toBe(0);
    expect([...r.gpi[0]!].every((v) => v === EPS)).toBe(true);
    const P = d.placeBinCenters.length;
    const counts = new Map<number, number>();
    const t = d.time;
    for (const u of d.electrodes[0]!.decodingSpikeTimes) {
      let row = 0;
      for (let j = 1; j <= t.length - 2; j++) if (t[j]! <= u) row = j;
      counts.set(row, (counts.get(row) ?? 0) + 1);
    }
    for (const s of STRATEGIES) {
      for (let row = 0; row < t.length; row++) {
        const expected = -EPS + (counts.get(row) ?? 0) * LOG_EPS;
        for (let p = 0; p < P; p++) expect(r.nonlocal[s]![row * P + p]).toBeCloseTo(expected, 9);
      }
    }
    // local: spikes add LOG_EPS, ground term 0
    for (let row = 0; row < t.length; row++) expect(r.local[row]).toBeCloseTo((counts.get(row) ?? 0) * LOG_EPS, 9);
  });

  it('an electrode with zero decoding spikes contributes only its share of Λ', async () => {
    const d = smallDataset({ electrodes: [{ nEnc: 30, nDec: 0, nFeatures: 2 }] });
    const r = await run(d);
    const P = d.placeBinCenters.length;
    for (const s of STRATEGIES) {
      for (let i = 0; i < r.nonlocal[s]!.length; i++) expect(r.nonlocal[s]![i]).toBe(-r.summed[i % P]!);
    }
    expectMatchesOracle(d, r);
  });

  it('all electrodes without encoding and decoding spikes: LL = −N_e·EPS (non-local), 0 (local)', async () => {
    const d = smallDataset({ electrodes: [{ nEnc: 0, nDec: 0, nFeatures: 2 }, { nEnc: 0, nDec: 0, nFeatures: 4 }] });
    const r = await run(d);
    for (const s of STRATEGIES) expect(r.nonlocal[s]!.every((v) => v === -2 * EPS)).toBe(true);
    expect(r.local.every((v) => v === 0)).toBe(true);
  });

  it('a zero-occupancy bin: spike terms LOG_EPS and Λ_e = max(μ·EPS, EPS)', async () => {
    // a bin 1000 units (≈280 σ) from every position sample has occupancy exactly 0 in float64
    const bins = [10, 30, 50, 70, 90, 1100];
    const d = smallDataset({ bins, electrodes: [{ nEnc: 30, nDec: 12, nFeatures: 2 }] });
    const r = await run(d);
    expect(r.occupancy[5]).toBe(0);
    expect(r.gpi[0]![5]).toBe(Math.max(r.meanRates[0]! * EPS, EPS));
    const counts = new Array<number>(d.time.length).fill(0);
    const o = oracle(d);
    for (const s of STRATEGIES) {
      for (let t = 0; t < d.time.length; t++) {
        const v = r.nonlocal[s]![t * bins.length + 5]!;
        expect(v).toBeCloseTo(o.nonlocal[t * bins.length + 5]!, 9);
        counts[t] = Math.round((v + r.summed[5]!) / LOG_EPS);
      }
    }
    expect(counts.reduce((a, b) => a + b, 0)).toBe(12);
    expectMatchesOracle(d, r);
  });

  it('NaN position samples are dropped before the fit (model layer): N and μ change, outputs stay finite', async () => {
    const d = smallDataset();
    d.position[10] = NaN;
    d.position[11] = NaN;
    const r = await run(d, 'drop');
    expect(r.nonlocal.reference!.every(Number.isFinite)).toBe(true);
    const nValid = d.positionTime.length - 2;
    expect(r.meanRates[0]).toBeGreaterThan(0);
    expect(r.meanRates[0]! * nValid).toBeCloseTo(Math.round(r.meanRates[0]! * nValid), 9);
    const cleaned: Dataset = {
      ...d,
      positionTime: d.positionTime.filter((_, i) => i !== 10 && i !== 11),
      position: d.position.filter((v) => !Number.isNaN(v)),
    };
    expectMatchesOracle(cleaned, r);
  });

  it("NaN positions kept (the likelihood function's own semantics): occupancy NaN, every spike term floored, Λ_e = max(μ·EPS, EPS)", async () => {
    const d = smallDataset({ electrodes: [{ nEnc: 30, nDec: 12, nFeatures: 2 }] });
    d.position[10] = NaN;
    const r = await run(d, 'propagate');
    expect(r.occupancy.every(Number.isNaN)).toBe(true);
    const mu = r.meanRates[0]!;
    expect(r.gpi[0]!.every((v) => v === Math.max(mu * EPS, EPS))).toBe(true);
    const o = oracle(d);
    for (const s of STRATEGIES) expect([s, countNotClose(r.nonlocal[s]!, o.nonlocal)]).toEqual([s, 0]);
    expect(r.nonlocal.compensated!.every(Number.isFinite)).toBe(true);
  });

  it('NaN decoding positions (local path): the affected spikes add exactly LOG_EPS and the row ground term is 0', async () => {
    const d = smallDataset();
    d.decodingPosition![5] = NaN;
    const r = await run(d);
    expect(r.local.every(Number.isFinite)).toBe(true);
    expect(countNotClose(r.local, oracle(d).local, 1e-4, 1e-4)).toBe(0);
  });

  it('different feature counts per electrode with a scalar σ', async () => {
    const d = smallDataset({
      electrodes: [
        { nEnc: 20, nDec: 8, nFeatures: 1 },
        { nEnc: 25, nDec: 9, nFeatures: 4 },
        { nEnc: 15, nDec: 7, nFeatures: 10 },
      ],
      waveformStd: 20,
    });
    expectMatchesOracle(d, await run(d));
  });

  it('a per-dimension σ with equal entries gives the same result as the scalar', async () => {
    const scalar = smallDataset({ electrodes: [{ nEnc: 30, nDec: 10, nFeatures: 3 }], waveformStd: 24 });
    const vector = { ...scalar, params: { ...scalar.params, waveformStd: [24, 24, 24] } };
    const a = await run(scalar);
    const b = await run(vector);
    for (const s of STRATEGIES) expect(maxAbsDiff(a.nonlocal[s]!, b.nonlocal[s]!)).toBe(0);
    const unequal = { ...scalar, params: { ...scalar.params, waveformStd: [10, 24, 40] } };
    expectMatchesOracle(unequal, await run(unequal));
  });

  it('a per-dimension σ that does not match an electrode is refused with the electrode named', async () => {
    const d = smallDataset({ electrodes: [{ nEnc: 10, nDec: 3, nFeatures: 2 }, { nEnc: 10, nDec: 3, nFeatures: 3 }] });
    d.params.waveformStd = [24, 24];
    await expect(fitEncodingModel(d)).rejects.toThrow(/waveform_std has 2 entries.*'e1'.*3 dimensions/);
  });

  it('spikes on the grid: u = t_j goes to row j, u = t_{T−1} to row T−2, row T−1 never gets a spike', async () => {
    const d = smallDataset({ electrodes: [{ nEnc: 30, nDec: 0, nFeatures: 2 }] });
    const t = d.time;
    const T = t.length;
    const el = d.electrodes[0]!;
    el.decodingSpikeTimes = Float64Array.from([t[0]!, t[3]!, t[T - 1]!, t[T - 1]! + 1e-9, t[0]! - 1e-9]);
    el.decodingFeatures = Float64Array.from({ length: 10 }, (_, i) => i * 3);
    const r = await run(d);
    const P = d.placeBinCenters.length;
    const spikeRowsSeen = new Set<number>();
    for (let row = 0; row < T; row++) {
      if (r.nonlocal.reference![row * P] !== -r.summed[0]!) spikeRowsSeen.add(row);
    }
    expect([...spikeRowsSeen].sort((a, b) => a - b)).toEqual([0, 3, T - 2]);
    expectMatchesOracle(d, r);
  });

  it('T = 1 keeps only spikes with u == t_0, T = 2 sends every in-bounds spike to row 0', async () => {
    for (const nTime of [1, 2]) {
      const d = smallDataset({ nTime, electrodes: [{ nEnc: 30, nDec: 6, nFeatures: 2 }] });
      if (nTime === 1) d.electrodes[0]!.decodingSpikeTimes[2] = d.time[0]!;
      const r = await run(d);
      expect(r.nonlocal.reference!.length).toBe(nTime * d.placeBinCenters.length);
      expectMatchesOracle(d, r);
    }
  });

  it('encoding spikes exactly at τ_0 and τ_{N−1} are kept, outside ones dropped', async () => {
    const d = smallDataset({ electrodes: [{ nEnc: 0, nDec: 5, nFeatures: 1 }] });
    const el = d.electrodes[0]!;
    el.encodingSpikeTimes = Float64Array.from([-0.5, 0, 5, 10, 10.5]);
    el.encodingFeatures = Float64Array.from([1, 2, 3, 4, 5]);
    const r = await run(d);
    expect(r.meanRates[0]).toBe(3 / d.positionTime.length);
    expectMatchesOracle(d, r);
  });

  it('unsorted spike times give the same result as sorted ones (up to float32 summation order)', async () => {
    const d = smallDataset();
    const shuffled = structuredClone(d);
    const el = shuffled.electrodes[0]!;
    const order = [...el.decodingSpikeTimes.keys()].reverse();
    const D = el.nFeatures;
    el.decodingSpikeTimes = Float64Array.from(order, (i) => d.electrodes[0]!.decodingSpikeTimes[i]!);
    el.decodingFeatures = Float64Array.from(order.flatMap((i) => [...d.electrodes[0]!.decodingFeatures.subarray(i * D, i * D + D)]));
    const a = await run(d);
    const b = await run(shuffled);
    for (const s of STRATEGIES) expect([s, countNotClose(b.nonlocal[s]!, a.nonlocal[s]!, 1e-6, 1e-5)]).toEqual([s, 0]);
  });

  it('compensated stays on the floor where its rescaled sum underflows (never LOG_EPS + log μ − log π)', async () => {
    // Two encoding spikes far apart in position and mark, few position samples (μ ≫ π): at bins
    // near the second spike every product underflows; the repository's substitution would put
    // those entries at LOG_EPS + log(μ/π), above the floor.
    const d = smallDataset({ nPos: 6, electrodes: [{ nEnc: 2, nDec: 1, nFeatures: 1 }], waveformStd: 2, positionStd: 2 });
    const el = d.electrodes[0]!;
    el.encodingSpikeTimes = Float64Array.from([0.5, 9.5]);
    el.encodingFeatures = Float64Array.from([0, 400]);
    el.decodingSpikeTimes = Float64Array.from([1]);
    el.decodingFeatures = Float64Array.from([0]);
    const r = await run(d);
    const o = oracle(d);
    const P = d.placeBinCenters.length;
    const row = spikeRows(el.decodingSpikeTimes, d.time)[0]!;
    const mu = r.meanRates[0]!;
    // entries on the floor in the reference where μ > π: the substitution would lift them
    const lifted = [...Array(P).keys()].filter(
      (p) => Math.abs(o.nonlocal[row * P + p]! + o.summedGroundProcessIntensity[p]! - LOG_EPS) < 1e-9 && mu > r.occupancy[p]!,
    );
    expect(lifted.length).toBeGreaterThan(3);
    expect(countNotClose(r.nonlocal.compensated!, o.nonlocal)).toBe(0);
    expect(countNotClose(r.nonlocal.streaming!, o.nonlocal)).toBe(0);
  });
});

describe('model layer (spec §4.7)', () => {
  it('is_training: the fit uses training samples only, and spikes inside training runs widened by one interval', async () => {
    const d = smallDataset({ electrodes: [{ nEnc: 0, nDec: 4, nFeatures: 1 }] });
    const n = d.positionTime.length;
    const step = d.positionTime[1]! - d.positionTime[0]!;
    const isTraining = new Uint8Array(n);
    for (let i = 10; i < 30; i++) isTraining[i] = 1;
    for (let i = 40; i < 50; i++) isTraining[i] = 1;
    const el = d.electrodes[0]!;
    const tA = d.positionTime[10]!;
    const tB = d.positionTime[29]!;
    // inside the run, within one interval of its ends (kept), beyond (dropped)
    el.encodingSpikeTimes = Float64Array.from([tA - 1.5 * step, tA - 0.5 * step, (tA + tB) / 2, tB + 0.5 * step, tB + 1.5 * step]);
    el.encodingFeatures = Float64Array.from([1, 2, 3, 4, 5]);
    const model = await fitEncodingModel({ ...d, isTraining });
    try {
      // before the run: outside the in-bounds range of the training samples; after it: the first
      // spike is within one interval of the run (kept), the second falls in the gap (dropped)
      expect(model.electrodes[0]!.nEnc).toBe(2);
      expect(model.meanRates[0]).toBe(2 / 30);
      const rows = [...Array(n).keys()].filter((i) => isTraining[i]);
      const o = oracle({
        ...d,
        positionTime: Float64Array.from(rows, (i) => d.positionTime[i]!),
        position: Float64Array.from(rows, (i) => d.position[i]!),
        electrodes: [{ ...el, encodingSpikeTimes: Float64Array.from([(tA + tB) / 2]), encodingFeatures: Float64Array.from([3]) }],
      });
      expect(countNotClose(model.occupancy, o.occupancy)).toBe(0);
    } finally {
      model.dispose();
    }
  });
});
