import { describe, expect, it } from 'vitest';
import { estimateRows, posteriorEstimateRows } from './estimateRows';

describe('estimateRows', () => {
  it("labels auto's row with what it picks, keyed by the choice", () => {
    const rows = estimateRows(['reference', 'auto'], [
      { strategy: 'reference', peakBytes: 10, formula: 'E·P' },
      { strategy: 'compensated', peakBytes: 20, formula: 'E·B' },
    ]);
    expect(rows.map((r) => [r.choice, r.label])).toEqual([['reference', 'reference'], ['auto', 'auto → compensated']]);
  });

  it("gives the posterior stage a row per method, keyed apart from the strategies'", () => {
    const rows = posteriorEstimateRows([
      { model: 'detector', method: 'dense', rowsPerWindow: 2000, peakBytes: 300, formula: 'transition dense' },
      { model: 'detector', method: 'structured', rowsPerWindow: 2000, peakBytes: 200, formula: 'transition structured' },
    ]);
    expect(rows).toEqual([
      { choice: 'posterior-dense', label: 'detector posterior, dense', peakBytes: 300, formula: 'transition dense' },
      { choice: 'posterior-structured', label: 'detector posterior, structured', peakBytes: 200, formula: 'transition structured' },
    ]);
  });
});
