/**
 * Number formatting for tables, tooltips and axis labels. Pure; units are in the argument names.
 */

export function formatMs(ms: number | null | undefined, digits = 3): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  const abs = Math.abs(ms);
  if (abs >= 60_000) return `${(ms / 60_000).toFixed(1)} min`;
  if (abs >= 1000) return `${(ms / 1000).toPrecision(digits)} s`;
  if (abs >= 1 || abs === 0) return `${Number(ms.toPrecision(digits))} ms`;
  return `${Number((ms * 1000).toPrecision(digits))} µs`;
}

export function formatUs(us: number | null | undefined, digits = 3): string {
  if (us === null || us === undefined || !Number.isFinite(us)) return '–';
  return formatMs(us / 1000, digits);
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '–';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const sign = bytes < 0 ? '-' : '';
  const text = unit === 0 ? String(Math.round(value)) : value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2);
  return `${sign}${text} ${BYTE_UNITS[unit]}`;
}

/** An axis tick in binary units without padding zeros: 512 KiB, 1 MiB, 1.5 GiB. */
export function formatBinaryTick(bytes: number): string {
  if (!Number.isFinite(bytes)) return '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${bytes < 0 ? '-' : ''}${Number(value.toPrecision(3))} ${BYTE_UNITS[unit]}`;
}

export function formatPct(pct: number | null | undefined, digits = 1): string {
  if (pct === null || pct === undefined || !Number.isFinite(pct)) return '–';
  return `${pct > 0 ? '+' : ''}${pct.toFixed(digits)} %`;
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

export const bytesToMB = (bytes: number): number => bytes / (1024 * 1024);
