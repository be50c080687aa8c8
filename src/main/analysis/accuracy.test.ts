import { describe, expect, it } from 'vitest';
import type { DecodingAccuracy, StrategyResult } from '../../shared/report';
import { accuracyFindings, decodingAccuracy, truePositionAtRows, type DecodingGrid } from './accuracy';

/** 1-D bins 0, 2, 4, … and a likelihood whose row r peaks at bin peakBin(r). */
function peaked(nTime: number, nBins: number, peakBin: (r: number) => number): { grid: DecodingGrid; values: Float64Array } {
  const binCenters = Float64Array.from({ length: nBins }, (_, j) => 2 * j);
  const values = new Float64Array(nTime * nBins).fill(-50);
  for (let r = 0; r < nTime; r++) values[r * nBins + peakBin(r)] = 0;
  return { grid: { nTime, nBins, binCenters, positionDims: 1 }, values };
}

describe('truePositionAtRows', () => {
  it('interpolates the decoding position at each row time, NaN outside the samples and next to a missing one', () => {
    const truth = truePositionAtRows({
      time: Float64Array.of(-1, 0, 0.5, 1.25, 2, 3, 3.5, 9),
      positionTime: Float64Array.of(100, 101),
      position: Float64Array.of(7, 7),
      positionDims: 1,
      decodingPositionTime: Float64Array.of(0, 1, 2, 3, 4),
      decodingPosition: Float64Array.of(0, 10, 30, NaN, 50),
    });
    expect(Array.from(truth)).toEqual([NaN, 0, 5, 15, 30, NaN, NaN, NaN]);
  });

  it('falls back to the encoding track and keeps every position dimension', () => {
    const truth = truePositionAtRows({
      time: Float64Array.of(0.5, 1),
      positionTime: Float64Array.of(0, 1),
      position: Float64Array.of(0, 100, 10, 200),
      positionDims: 2,
    });
    expect(Array.from(truth)).toEqual([5, 150, 10, 200]);
  });
});

describe('decodingAccuracy', () => {
  it('gives no error and every row within 10 when each row peaks at the true position', () => {
    const { grid, values } = peaked(40, 50, (r) => r % 50);
    const truth = Float64Array.from({ length: 40 }, (_, r) => 2 * (r % 50));
    expect(decodingAccuracy(values, grid, truth)).toEqual({ rows: 40, medianAbsError: 0, shareWithin10: 1 });
  });

  it('measures a shift in position units, and counts rows within 10 units', () => {
    // decoded 6 bins (12 units) above the truth in 3 rows of 4, 1 bin (2 units) in the fourth
    const { grid, values } = peaked(40, 50, (r) => (r % 4 === 0 ? 11 : 16));
    const truth = new Float64Array(40).fill(20);
    const a = decodingAccuracy(Float32Array.from(values), grid, truth, 'cm')!;
    expect(a.medianAbsError).toBe(12);
    expect(a.shareWithin10).toBe(0.25);
    expect(a.units).toBe('cm');
  });

  it('skips rows with an unknown true position or a likelihood that names no position', () => {
    const { grid, values } = peaked(5, 10, () => 3);
    const truth = Float64Array.of(6, NaN, 6, 6, 6);
    values[2 * 10 + 7] = NaN;
    values.fill(-Infinity, 3 * 10, 4 * 10);
    values[4 * 10 + 1] = Infinity;
    expect(decodingAccuracy(values, grid, truth)).toEqual({ rows: 1, medianAbsError: 0, shareWithin10: 1 });
    expect(decodingAccuracy(values, grid, new Float64Array(5).fill(NaN))).toBeUndefined();
  });

  it('takes the Euclidean distance to the bin centre in 2-D', () => {
    const grid: DecodingGrid = { nTime: 2, nBins: 2, binCenters: Float64Array.of(0, 0, 30, 40), positionDims: 2 };
    const values = Float64Array.of(1, 0, 0, 1);
    const truth = Float64Array.of(3, 4, 30, 40);
    expect(decodingAccuracy(values, grid, truth)).toEqual({ rows: 2, medianAbsError: 2.5, shareWithin10: 1 });
  });

  it('refuses arrays that do not fit the grid', () => {
    const { grid, values } = peaked(4, 10, () => 0);
    expect(() => decodingAccuracy(values.subarray(1), grid, new Float64Array(4))).toThrow(/do not fit 4 rows × 10 bins/);
  });
});

function result(strategy: StrategyResult['strategy'], accuracy?: DecodingAccuracy, extra: Partial<StrategyResult> = {}): StrategyResult {
  return { strategy, resolved: [], status: 'ok', stages: [], kernels: [], ...(accuracy ? { accuracy } : {}), ...extra };
}

describe('accuracyFindings', () => {
  const good: DecodingAccuracy = { rows: 100, medianAbsError: 3, shareWithin10: 0.9, units: 'cm' };

  it('warns when a strategy decodes further from the truth than the reference', () => {
    const findings = accuracyFindings([
      result('reference', good),
      result('compensated', { ...good, medianAbsError: 4 }),
      result('chunked', { ...good, medianAbsError: 12, shareWithin10: 0.6 }, {
        agreementWithReference: { against: 'reference', maxAbsDiff: 3, meanAbsDiff: 1, allclose: false, argmaxAgreement: 0.4 },
      }),
    ]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ id: 'accuracy-differs:chunked', severity: 'warning', strategy: 'chunked', value: 9 });
    expect(findings[0]!.message).toContain('median error 12 cm, 60.0 % of rows within 10 cm, against median error 3 cm, 90.0 % of rows within 10 cm');
    expect(findings[0]!.message).toContain('disagrees with reference');
  });

  it('judges the median in bins when the bin size is known, and the share within 10 on its own', () => {
    const pair = [result('reference', good), result('streaming', { ...good, medianAbsError: 8 })];
    expect(accuracyFindings(pair)).toHaveLength(1);
    expect(accuracyFindings(pair, 5)).toEqual([]);
    expect(accuracyFindings([result('reference', good), result('streaming', { ...good, shareWithin10: 0.84 })], 5)).toHaveLength(1);
  });

  it('compares with the first strategy that decoded when the reference did not run, and ignores failures', () => {
    const findings = accuracyFindings([
      result('reference', undefined, { status: 'failed' }),
      result('compensated', good),
      result('logsumexp', { ...good, medianAbsError: 20 }),
      result('chunked', { ...good, medianAbsError: 20 }, { status: 'failed' }),
    ]);
    expect(findings.map((f) => f.id)).toEqual(['accuracy-differs:logsumexp']);
    expect(findings[0]!.message).toContain('differently from compensated');
    expect(accuracyFindings([result('reference')])).toEqual([]);
  });
});
