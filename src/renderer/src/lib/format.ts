/**
 * Number formatting that only the app needs: plain values, axis ticks. Bytes, durations, shares,
 * changes and ratios print through src/shared/format, as in the report; a run's progress and time
 * left through src/shared/progress, as on the terminal.
 * Pure; units are in the argument names.
 */
import { inBinaryUnits } from '../../../shared/format';

/** An axis tick in binary units without padding zeros: 512 KiB, 1 MiB, 1.5 GiB. */
export function formatBinaryTick(bytes: number): string {
  if (!Number.isFinite(bytes)) return '';
  const { value, unit } = inBinaryUnits(bytes);
  return `${Number(value.toPrecision(3))} ${unit}`;
}

export function formatNumber(value: number | null | undefined, digits = 4): string {
  if (value === null || value === undefined) return '–';
  if (!Number.isFinite(value)) return String(value);
  if (value !== 0 && (Math.abs(value) < 1e-3 || Math.abs(value) >= 1e6)) return value.toExponential(2);
  return String(Number(value.toPrecision(digits)));
}

/**
 * A time range "1161.25–1161.75" (seconds, no unit): as many decimals as tell its ends apart at a
 * tenth of its span (a zoomed 0.5 s at 1161 s would read "1161–1161" at four significant digits),
 * none for a span of seconds or more.
 */
export function formatTimeRange(t0: number | undefined, t1: number | undefined): string {
  if (t0 === undefined || t1 === undefined || !Number.isFinite(t0) || !Number.isFinite(t1)) return `${formatNumber(t0)}–${formatNumber(t1)}`;
  const span = Math.abs(t1 - t0);
  const decimals = span > 0 ? Math.min(6, Math.max(0, Math.ceil(-Math.log10(span / 10)))) : 0;
  return `${t0.toFixed(decimals)}–${t1.toFixed(decimals)}`;
}
