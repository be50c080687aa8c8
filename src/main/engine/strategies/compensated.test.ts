import { describe, expect, it } from 'vitest';
import { EPS, FLUSH_BELOW, FLUSH_TOLERANCE, flushIsSafe, flushThreshold } from '../model';
import { positionOrder } from './compensated';

describe('compensated on the wasm kernels', () => {
  it('orders encoding spikes by their first position coordinate, ties in spike order, NaN and ±inf last', () => {
    expect(Array.from(positionOrder([3, NaN, 1, 1, Infinity, 2, 0.5], 7, 1))).toEqual([6, 2, 3, 5, 0, 1, 4]);
    // the first of two coordinates decides
    expect(Array.from(positionOrder([9, 0, 1, 5, 4, 7], 3, 2))).toEqual([1, 2, 0]);
    expect(Array.from(positionOrder([5, 5, 5], 3, 1))).toEqual([0, 1, 2]);
    expect(Array.from(positionOrder([NaN, -Infinity], 2, 1))).toEqual([0, 1]);
    expect(positionOrder([], 0, 1)).toHaveLength(0);
  });

  it('orders many positions into a permutation that never steps back by more than a bucket', () => {
    const n = 20_000;
    const x = Float32Array.from({ length: n }, (_, i) => ((i * 7919) % 10_007) / 50);
    const order = positionOrder(x, n, 1);
    expect(new Set(order).size).toBe(n);
    const bucket = (Math.max(...x) - Math.min(...x)) / 4096;
    let worst = 0;
    for (let i = 1; i < n; i++) worst = Math.max(worst, x[order[i - 1]!]! - x[order[i]!]!);
    expect(worst).toBeLessThanOrEqual(bucket);
  });

  it('flushes only where the dropped terms stay far below the floor of every bin', () => {
    // a production tetrode: 6 cm positions, 24 µV marks in 4 features, biases up to ~3.8
    const positionLogNorm = -Math.log(6 * Math.sqrt(2 * Math.PI));
    const markLogNorm = -4 * Math.log(24 * Math.sqrt(2 * Math.PI));
    expect(flushIsSafe(positionLogNorm, markLogNorm, 3.8)).toBe(true);
    // a bin whose occupancy is tiny has a large bias: its floor is lower than any flushed term may reach
    expect(flushIsSafe(positionLogNorm, markLogNorm, 40)).toBe(false);
    // narrow kernels have large normalisers
    expect(flushIsSafe(-Math.log(0.01 * Math.sqrt(2 * Math.PI)), -4 * Math.log(0.01 * Math.sqrt(2 * Math.PI)), 0)).toBe(false);
    expect(flushIsSafe(positionLogNorm, markLogNorm, Infinity)).toBe(false);
  });

  it('gives the largest drop threshold the same bound allows: at least 2^−63 exactly where flushIsSafe says so', () => {
    const positionLogNorm = -Math.log(6 * Math.sqrt(2 * Math.PI));
    const markLogNorm = -4 * Math.log(24 * Math.sqrt(2 * Math.PI));
    for (const bias of [-10, 0, 3.8, 12, 13, 20, 40]) {
      const tau = flushThreshold(positionLogNorm, markLogNorm, bias);
      expect(tau >= FLUSH_BELOW, `bias ${bias}`).toBe(flushIsSafe(positionLogNorm, markLogNorm, bias));
      // dropping below τ moves no J at the floor by more than the tolerance, and not by less
      expect(2 * tau * Math.exp(positionLogNorm + markLogNorm + bias)).toBeCloseTo(FLUSH_TOLERANCE * EPS, 30);
    }
    // the production tetrode's: well above 2^−63
    expect(Math.log2(flushThreshold(positionLogNorm, markLogNorm, 3.8))).toBeGreaterThan(-50);
    expect(flushThreshold(positionLogNorm, markLogNorm, Infinity)).toBe(0);
  });
});
