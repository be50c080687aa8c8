import { describe, expect, it } from 'vitest';
import type { Agreement, StrategyResult } from '../../shared/report';
import { recommend } from './recommend';
import type { AnalysisInput } from './results';
import { cpuBackend, dataset, okResult, timing } from './testData';

function input(strategies: StrategyResult[], extra: Partial<AnalysisInput> = {}): AnalysisInput {
  return { strategies, backend: cpuBackend(), requestedBackend: 'wasm', dataset: dataset(), ...extra };
}

const agrees: Agreement = { against: 'reference', maxAbsDiff: 3e-5, meanAbsDiff: 1e-6, allclose: true, argmaxAgreement: 1 };
const disagrees: Agreement = { against: 'reference', maxAbsDiff: 3.1, meanAbsDiff: 0.1, allclose: false, argmaxAgreement: 0.9 };

describe('recommend', () => {
  it('picks the fastest strategy that agrees with the reference and fits the budget', () => {
    const rec = recommend(input([
      okResult('reference', 100),
      okResult('compensated', 10, { agreementWithReference: agrees, memory: { estimatedPeakBytes: 680_000, measuredPeakTensorBytes: 0 } }),
      okResult('logsumexp', 5, { agreementWithReference: disagrees }),
      okResult('chunked', 3, { agreementWithReference: agrees, memory: { estimatedPeakBytes: 2 * 1024 ** 3, measuredPeakTensorBytes: 0 } }),
    ]));
    expect(rec).toMatchObject({ strategy: 'compensated', blockSize: 100 });
    expect(rec?.encTileSize).toBeUndefined();
    expect(rec?.reason).toContain(
      'compensated had the lowest warm median encode + decode, 10 ms (95 % CI 10 ms – 10 ms); the runner-up reference is slower: ' +
        '100 ms (95 % CI 100 ms – 100 ms), 10.0× (95 % CI 10.0–10.0) the time',
    );
    expect(rec?.runnerUp).toEqual({ strategy: 'reference', against: 'compensated', ratio: 10, ratioCi95: [10, 10], verdict: 'slower' });
    expect(rec?.reason).toContain('max |diff| 3.00e-5');
    expect(rec?.reason).toContain('logsumexp disagrees with reference');
    expect(rec?.reason).toContain('chunked needs 2.00 GiB');
  });

  it('says of a strategy called once on its own (a decode) what it took, not that it was the lowest', () => {
    const rec = recommend(input([okResult('compensated', 1900, { total: timing(1900, []) })]));
    expect(rec?.reason).toContain('compensated took 1.90 s to encode and decode, in one call');
    expect(rec?.reason).not.toContain('warm median');
  });

  it('says what the estimate covers and leads with the peak the engine measured (a decode that held 1.21 GiB)', () => {
    const memory = { estimatedPeakBytes: 64.8 * 1024 ** 2, measuredPeakTensorBytes: 0, peakRssBytes: 1.21 * 1024 ** 3 };
    const rec = recommend(input([okResult('compensated', 84_000, { total: timing(84_000, []), memory })]));
    expect(rec?.reason).toContain(
      "fits the 1.00 GiB budget (the budget is for the likelihood's tensors: an estimated 64.8 MiB for the largest electrode); " +
        'the engine process peaked at 1.21 GiB in all (measured).',
    );
    expect(rec?.reason).not.toContain('estimated peak 64.8 MiB');
  });

  it('accepts a strategy that is not allclose but decodes the same position in ≥ 99 % of rows', () => {
    const nearly = { ...disagrees, argmaxAgreement: 0.995 };
    const rec = recommend(input([okResult('reference', 100), okResult('logsumexp', 50, { agreementWithReference: nearly })]));
    expect(rec?.strategy).toBe('logsumexp');
    expect(rec?.reason).toContain('99.5 % of rows');
  });

  it('respects the run budget and the config block size and chunk', () => {
    const memory = { estimatedPeakBytes: 60e6, measuredPeakTensorBytes: 0 };
    const rec = recommend(input(
      [okResult('reference', 100), okResult('logsumexp', 10, { agreementWithReference: agrees, memory }), okResult('chunked', 40, { agreementWithReference: agrees })],
      { memoryBudgetBytes: 50e6, blockSize: 200, encTileSize: 512 },
    ));
    expect(rec).toEqual(expect.objectContaining({ strategy: 'chunked', blockSize: 200, encTileSize: 512 }));
  });

  it('reads auto as the strategy it resolved to, and skips failed runs', () => {
    const failed: StrategyResult = { strategy: 'compensated', resolved: [], status: 'failed', stages: [], kernels: [] };
    const rec = recommend(input([okResult('reference', 100), okResult('auto', 20, { agreementWithReference: agrees }), failed]));
    expect(rec?.strategy).toBe('compensated');
  });

  it('never runs a strategy up against itself: auto counts as the strategy it resolved to', () => {
    const rec = recommend(input([
      okResult('reference', 100),
      okResult('compensated', 20, { total: timing(20, [20, 21, 19, 20, 22]), agreementWithReference: agrees }),
      okResult('auto', 21, { total: timing(21, [21, 22, 20, 21, 23]), agreementWithReference: agrees }),
    ]));
    expect(rec?.strategy).toBe('compensated');
    expect(rec?.runnerUp?.strategy).toBe('reference');
    expect(rec?.reason).not.toMatch(/compensated .*(slower|faster) .*compensated/);
    expect(rec?.reason).not.toContain('next auto');
    // the same holds when auto is the faster of the two
    const autoFirst = recommend(input([
      okResult('reference', 100),
      okResult('compensated', 21, { agreementWithReference: agrees }),
      okResult('auto', 20, { agreementWithReference: agrees }),
    ]));
    expect(autoFirst?.strategy).toBe('compensated');
    expect(autoFirst?.runnerUp).toMatchObject({ strategy: 'reference', against: 'compensated' });
  });

  it('says "no significant difference" when the runner-up\'s samples overlap the best\'s', () => {
    const rec = recommend(input([
      okResult('reference', 182, { total: timing(300, [176, 190, 182, 171, 195, 180, 186]) }),
      okResult('compensated', 180, { total: timing(300, [178, 185, 172, 191, 180, 183, 175]), agreementWithReference: agrees }),
    ]));
    expect(rec?.strategy).toBe('compensated');
    expect(rec?.runnerUp?.verdict).toBe('no significant difference');
    expect(rec?.runnerUp?.ratioCi95[0]).toBeLessThan(1);
    expect(rec?.runnerUp?.ratioCi95[1]).toBeGreaterThan(1);
    expect(rec?.reason).toMatch(/^On wasm compensated and reference show no significant difference: reference takes 1\.0\d× \(95 % CI 0\.\d\d–1\.\d\d\) the time of compensated/);
    // the ranking, then what the choice is, as a sentence of its own (not "…so either will do, is the reference, fits…")
    expect(rec?.reason).toContain('so either will do. compensated agrees with reference (max |diff| 3.00e-5) and fits the 1.00 GiB budget.');
    expect(rec?.reason).not.toContain('slower');
  });

  it('says when the machine was busy while the two measured, with the load each saw', () => {
    const load = (otherCpuShare: number) => ({ loadAverageStart: [5], loadAverageEnd: [5], otherCpuShare, busy: true });
    const rec = recommend(input([
      okResult('reference', 49, { total: timing(60, [49, 48, 50, 49]), load: load(0.16) }),
      okResult('compensated', 71, { total: timing(80, [71, 70, 72, 71]), agreementWithReference: agrees, load: load(0.41) }),
    ]));
    expect(rec?.reason).toMatch(/ The machine was busy \(other processes took 16\.0 % while reference measured, 41\.0 % while compensated measured\): this ordering may come from the load rather than the strategies; measure again on a quiet machine\.$/);
    expect(recommend(input([okResult('reference', 100)]))?.reason).not.toContain('busy');
  });

  it('says of a run stopped before its repeats that it ranks first calls, not warm medians', () => {
    const rec = recommend(input([
      okResult('reference', 219, { total: timing(219, []) }),
      okResult('compensated', 80, { total: timing(80, []), agreementWithReference: agrees }),
    ]));
    expect(rec?.reason).toMatch(/^On wasm compensated took the least time in its first call, 80 ms; next reference 219 ms, 2\.74× the time, but first calls carry start-up work/);
    expect(rec?.reason).not.toContain('warm median');
  });

    it('gives no verdict from single repeats', () => {
    const rec = recommend(input([
      okResult('reference', 100, { total: timing(100, [100]) }),
      okResult('compensated', 50, { total: timing(50, [50]), agreementWithReference: agrees }),
    ]));
    expect(rec?.runnerUp).toBeUndefined();
    expect(rec?.reason).toContain('single repeats give no interval to tell them apart (use --repeats auto)');
  });

  it('recommends nothing when no strategy qualifies', () => {
    expect(recommend(input([okResult('logsumexp', 5, { agreementWithReference: disagrees })]))).toBeUndefined();
    expect(recommend(input([]))).toBeUndefined();
  });
});
