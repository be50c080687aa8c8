/**
 * Number formatting that only the app needs: plain values, axis ticks, time left. Bytes,
 * durations, shares, changes and ratios print through src/shared/format, as in the report.
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

/** Time left as "about 12 s", "about 3 min 5 s": whole seconds, since finer is noise for a person. */
export function formatEta(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  const s = Math.round(ms / 1000);
  if (s < 1) return 'less than a second';
  if (s < 60) return `about ${s} s`;
  const m = Math.floor(s / 60);
  return `about ${m} min ${s % 60} s`;
}
