import { describe, expect, it } from 'vitest';
import { ACCURACY_RADIUS } from '../main/analysis/accuracy';
import { CHANCE_RADIUS, chanceAccuracy, positionsWithin } from './chanceAccuracy';

const centres = (n: number, step: number): Float64Array => Float64Array.from({ length: n }, (_, i) => (i + 0.5) * step);

describe('chanceAccuracy', () => {
  it('uses the radius the report judges accuracy with', () => {
    expect(CHANCE_RADIUS).toBe(ACCURACY_RADIUS);
  });

  it('is the median over every (row, bin) distance and the mean share of bins within the radius', () => {
    // bins at 5, 15, …, 95; one animal at 50: distances 5,5,15,15,…,45,45
    const c = chanceAccuracy(centres(10, 10), [50], 1)!;
    expect(c.rows).toBe(1);
    expect(c.medianAbsError).toBe(25);
    expect(c.shareWithin10).toBeCloseTo(2 / 10);
  });

  it('is worse at the end of the track than in its middle', () => {
    const middle = chanceAccuracy(centres(100, 2), [100], 1)!;
    const end = chanceAccuracy(centres(100, 2), [1], 1)!;
    expect(end.medianAbsError).toBeGreaterThan(middle.medianAbsError);
    expect(middle.medianAbsError).toBeCloseTo(50, 0);
    expect(middle.shareWithin10).toBeCloseTo(10 / 100);
    expect(end.shareWithin10).toBeCloseTo(6 / 100);
  });

  it('skips unknown positions and answers nothing without bins or positions', () => {
    expect(chanceAccuracy(centres(10, 10), [NaN, 50], 1)!.rows).toBe(1);
    expect(chanceAccuracy(centres(10, 10), [NaN], 1)).toBeUndefined();
    expect(chanceAccuracy([], [1], 1)).toBeUndefined();
  });

  it('measures Euclidean distances in 2-D', () => {
    const c = chanceAccuracy([0, 0, 30, 40], [0, 0], 2)!;
    expect(c.medianAbsError).toBe(25);
    expect(c.shareWithin10).toBe(0.5);
  });

  it('stays close on long recordings, where it pools evenly spaced rows', () => {
    const truth = Float64Array.from({ length: 20_000 }, (_, i) => (i % 200) / 2);
    const bins = centres(200, 0.5);
    const c = chanceAccuracy(bins, truth, 1)!;
    expect(c.rows).toBe(20_000);
    // uniform truth and uniform guesses on [0, 100]: median |U − V| = 100 (1 − 1/√2), share within 10 = 1 − 0.9²
    expect(c.medianAbsError).toBeCloseTo(100 * (1 - Math.SQRT1_2), 0);
    expect(c.shareWithin10).toBeCloseTo(0.19, 2);
  });
});

describe('positionsWithin', () => {
  it('keeps the samples inside the decoded span, preferring the decoding track', () => {
    const d = { positionTime: Float64Array.of(0, 1, 2), position: Float64Array.of(1, 2, 3), positionDims: 1 };
    expect(Array.from(positionsWithin(d, 0.5, 2))).toEqual([2, 3]);
    const withDecoding = { ...d, decodingPositionTime: Float64Array.of(1, 5), decodingPosition: Float64Array.of(7, 8) };
    expect(Array.from(positionsWithin(withDecoding, 0, 2))).toEqual([7]);
  });
});
