import { describe, expect, it } from 'vitest';
import { estimateRows } from './estimateRows';
import { findingCode, notMeasuredItems, verdictDetail } from './resultTables';

describe('estimateRows', () => {
  const est = (strategy: 'reference' | 'compensated' | 'streaming', peakBytes: number) => ({ strategy, peakBytes, formula: `${strategy} formula` });

  it("labels auto's row with what it picks and keys it by the choice, so rows stay unique", () => {
    const rows = estimateRows(['reference', 'compensated', 'auto'], [est('reference', 10), est('compensated', 20), est('compensated', 20)]);
    expect(rows.map((r) => [r.choice, r.label])).toEqual([
      ['reference', 'reference'], ['compensated', 'compensated'], ['auto', 'auto → compensated'],
    ]);
    expect(new Set(rows.map((r) => r.choice)).size).toBe(3);
  });

  it('falls back to the answered names when the choices changed meanwhile, never repeating a row', () => {
    const rows = estimateRows(['reference'], [est('reference', 10), est('streaming', 5), est('streaming', 5)]);
    expect(rows.map((r) => r.choice)).toEqual(['reference', 'streaming']);
  });
});

describe('finding and report text', () => {
  it("drops the strategy a finding's id repeats, since it shows as a tag", () => {
    expect(findingCode('strategy-slower:reference', 'reference')).toBe('strategy-slower');
    expect(findingCode('strategy-slower:auto (compensated)', 'auto (compensated)')).toBe('strategy-slower');
    expect(findingCode('leak', 'reference')).toBe('leak');
    expect(findingCode('E020', undefined)).toBe('E020');
  });

  it('splits "not measured" notes into topic and detail for a list', () => {
    expect(notMeasuredItems(['HLO operation counts: TensorFlow.js has no compiler IR.', 'no colon here'])).toEqual([
      { topic: 'HLO operation counts', detail: 'TensorFlow.js has no compiler IR.' },
      { topic: '', detail: 'no colon here' },
    ]);
  });

  it("keeps only what the verdict adds to the line's own opening", () => {
    expect(verdictDetail('B regresses beyond 10 %: reference decode median +20.0 % (100 ms → 120 ms).')).toBe('reference decode median +20.0 % (100 ms → 120 ms).');
    expect(verdictDetail('No regression beyond 30 %; largest increase reference decode median +20.0 %.')).toBe('largest increase reference decode median +20.0 %.');
    expect(verdictDetail('No regression beyond 10 %. Note: datasets differ (a vs b).')).toBe('Note: datasets differ (a vs b).');
    expect(verdictDetail('No regression beyond 10 %.')).toBe('no metric rose beyond it.');
  });
});
