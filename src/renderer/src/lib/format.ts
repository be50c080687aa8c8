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
