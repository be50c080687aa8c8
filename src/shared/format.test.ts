import { describe, expect, it } from 'vitest';
import { formatAbsDiff, formatBytes, formatMs, formatMsPlusMinus, formatRatio, formatShare, formatSignedPct, formatUs, inBinaryUnits } from './format';

describe('format', () => {
  it('picks units', () => {
    expect(formatMs(0.25)).toBe('250 µs');
    expect(formatMs(12.345)).toBe('12.3 ms');
    expect(formatMs(1500)).toBe('1.50 s');
    expect(formatMs(120_000)).toBe('2.0 min');
    expect(formatMs(undefined)).toBe('n/a');
    expect(formatUs(2500)).toBe('2.5 ms');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.50 KiB');
    expect(formatBytes(300 * 1024 * 1024)).toBe('300 MiB');
    expect(formatSignedPct(12.345)).toBe('+12.3 %');
    expect(formatSignedPct(-3)).toBe('-3.0 %');
  });

  it('prints a value that is not a finite number as a word', () => {
    for (const f of [formatBytes, formatMs, formatUs, formatShare, formatSignedPct, formatRatio, formatAbsDiff]) {
      expect(f(null)).toBe('n/a');
      expect(f(undefined)).toBe('n/a');
      expect(f(Number.NaN)).toBe('NaN');
      expect(f(Number.POSITIVE_INFINITY)).toBe('+Inf');
      expect(f(Number.NEGATIVE_INFINITY)).toBe('-Inf');
    }
  });

  it('reads bytes in binary units to about three digits', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(8 * 1024 * 1024)).toBe('8.00 MiB');
    expect(formatBytes(59 * 1024 * 1024)).toBe('59.0 MiB');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2.00 GiB');
    expect(formatBytes(-1536)).toBe('-1.50 KiB');
    expect(inBinaryUnits(1.5 * 1024 ** 3)).toEqual({ value: 1.5, unit: 'GiB' });
  });

  it('gives a spread in the unit of its mean', () => {
    expect(formatMsPlusMinus(100, 3)).toBe('100 ms ± 3 ms');
    expect(formatMsPlusMinus(17.1, 0.665)).toBe('17.1 ms ± 0.67 ms');
    expect(formatMsPlusMinus(2950, 120)).toBe('2.95 s ± 0.12 s');
    expect(formatMsPlusMinus(0.3, 0.05)).toBe('300 µs ± 50 µs');
    expect(formatMsPlusMinus(null, 2)).toBe('n/a ± 2 ms');
    expect(formatMsPlusMinus(5, Number.NaN)).toBe('5 ms ± NaN');
  });

  it('prints shares, changes, ratios and differences', () => {
    expect(formatShare(0.644)).toBe('64.4 %');
    expect(formatShare(1)).toBe('100 %');
    expect(formatShare(0)).toBe('0 %');
    expect(formatShare(0.5, 0)).toBe('50 %');
    expect(formatSignedPct(0)).toBe('+0.0 %');
    expect(formatRatio(1.125)).toBe('1.13×');
    expect(formatRatio(144.6)).toBe('145×');
    expect(formatAbsDiff(0)).toBe('0');
    expect(formatAbsDiff(1.53e-5)).toBe('1.53e-5');
    expect(formatAbsDiff(0.5)).toBe('0.500');
  });
});
