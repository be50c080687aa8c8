import { describe, expect, it } from 'vitest';
import type { Agreement, StrategyResult } from '../../shared/report';
import { recommend } from './recommend';
import type { AnalysisInput } from './results';
import { cpuBackend, dataset, okResult } from './testData';

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
    expect(rec?.reason).toContain('compensated had the lowest warm median encode + decode (10 ms; next reference 100 ms, 10× slower)');
    expect(rec?.reason).toContain('max |diff| 3.00e-5');
    expect(rec?.reason).toContain('logsumexp disagrees with reference');
    expect(rec?.reason).toContain('chunked needs 2.00 GiB');
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

  it('recommends nothing when no strategy qualifies', () => {
    expect(recommend(input([okResult('logsumexp', 5, { agreementWithReference: disagrees })]))).toBeUndefined();
    expect(recommend(input([]))).toBeUndefined();
  });
});
