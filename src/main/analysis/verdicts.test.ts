import { describe, expect, it } from 'vitest';
import { formatMedianCi, sameStrategy, withVsReference } from './verdicts';
import { okResult, timing } from './testData';

describe('withVsReference', () => {
  it('puts each strategy\'s total against the reference, with the interval of the ratio', () => {
    const [ref, comp] = withVsReference([
      okResult('reference', 100, { total: timing(100, [100, 104, 98, 101]) }),
      okResult('compensated', 50, { total: timing(50, [50, 52, 49, 51]) }),
    ]);
    expect(ref!.vsReference).toBeUndefined();
    expect(comp!.vsReference).toMatchObject({ against: 'reference', verdict: 'faster' });
    expect(comp!.vsReference!.ratio).toBeCloseTo(50.5 / 100.5, 12);
    expect(comp!.vsReference!.ratioCi95[1]).toBeLessThan(1);
  });

  it('skips auto that resolved to the reference, single repeats, and runs without the reference', () => {
    const out = withVsReference([okResult('reference', 100), okResult('auto', 90, { resolved: ['reference'] }), okResult('logsumexp', 50, { total: timing(50, [50]) })]);
    expect(out.map((s) => s.vsReference)).toEqual([undefined, undefined, undefined]);
    expect(withVsReference([okResult('logsumexp', 50)])[0]!.vsReference).toBeUndefined();
  });
});

describe('sameStrategy and formatMedianCi', () => {
  it('reads auto as what it resolved to', () => {
    expect(sameStrategy(okResult('auto', 1), okResult('compensated', 1))).toBe(true);
    expect(sameStrategy(okResult('auto', 1), okResult('reference', 1))).toBe(false);
  });

  it('prints the median with half its interval', () => {
    expect(formatMedianCi({ medianMs: 180, ci95: [172.8, 187.2] })).toBe('180 ms ±4.0 %');
    expect(formatMedianCi({ medianMs: 180 })).toBe('180 ms');
  });
});
