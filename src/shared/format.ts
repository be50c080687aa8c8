/**
 * How a measured quantity prints wherever a person reads it: in a finding or recommendation, in
 * the Markdown report and the CLI, and in the app. One rendering per quantity, so a peak or a
 * median reads the same in all three. Pure; no node, no DOM.
 *
 * A value that is not a finite number prints as a word, never as a made-up number: "n/a" when it
 * is missing (null or undefined, which is also what JSON makes of NaN), else "NaN", "+Inf", "-Inf".
 */

export type MaybeNumber = number | null | undefined;

/** The word for a value that is not a finite number; undefined for one that is. */
export function nonFiniteText(x: MaybeNumber): string | undefined {
  if (x === null || x === undefined) return 'n/a';
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  return undefined;
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A byte count as a value in the largest binary unit it reaches: 1536 → 1.5 KiB. */
export function inBinaryUnits(bytes: number): { value: number; unit: (typeof BYTE_UNITS)[number] } {
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return { value: bytes < 0 ? -value : value, unit: BYTE_UNITS[unit]! };
}

/** Binary units, as the OS and tfjs report memory, to about three digits: 512 B, 1.50 KiB, 393 MiB. */
export function formatBytes(bytes: MaybeNumber): string {
  const word = nonFiniteText(bytes);
  if (word !== undefined) return word;
  const { value, unit } = inBinaryUnits(bytes!);
  const abs = Math.abs(value);
  const text = unit === 'B' ? String(Math.round(value)) : value.toFixed(abs >= 100 ? 0 : abs >= 10 ? 1 : 2);
  return `${text} ${unit}`;
}

interface DurationUnit {
  name: 'min' | 's' | 'ms' | 'µs';
  ms: number;
}

function durationUnitOf(ms: number): DurationUnit {
  const abs = Math.abs(ms);
  if (abs >= 60_000) return { name: 'min', ms: 60_000 };
  if (abs >= 1000) return { name: 's', ms: 1000 };
  if (abs >= 1 || abs === 0) return { name: 'ms', ms: 1 };
  return { name: 'µs', ms: 1e-3 };
}

/** A duration in the unit that fits it, to `significantDigits`: 250 µs, 12.3 ms, 1.50 s, 2.0 min. */
export function formatMs(ms: MaybeNumber, significantDigits = 3): string {
  const word = nonFiniteText(ms);
  if (word !== undefined) return word;
  const unit = durationUnitOf(ms!);
  const value = ms! / unit.ms;
  if (unit.name === 'min') return `${value.toFixed(1)} min`;
  if (unit.name === 's') return `${value.toPrecision(significantDigits)} s`;
  return `${Number(value.toPrecision(significantDigits))} ${unit.name}`;
}

export function formatUs(us: MaybeNumber, significantDigits = 3): string {
  return formatMs(us === null || us === undefined ? us : us / 1000, significantDigits);
}

/** A mean with its spread, the spread in the mean's unit to two digits: "17.1 ms ± 0.67 ms". */
export function formatMsPlusMinus(meanMs: MaybeNumber, stdMs: MaybeNumber): string {
  const mean = formatMs(meanMs);
  const word = nonFiniteText(stdMs);
  if (word !== undefined) return `${mean} ± ${word}`;
  const unit = durationUnitOf(nonFiniteText(meanMs) === undefined ? meanMs! : stdMs!);
  return `${mean} ± ${Number((stdMs! / unit.ms).toPrecision(2))} ${unit.name}`;
}

/** A share of 0..1 as a percentage; exactly none or all print without decimals: 0 %, 64.4 %, 100 %. */
export function formatShare(share: MaybeNumber, digits = 1): string {
  const word = nonFiniteText(share);
  if (word !== undefined) return word;
  return `${(share! * 100).toFixed(share === 0 || share === 1 ? 0 : digits)} %`;
}

/** A change in percent, always with its sign: +20.0 %, -3.0 %. */
export function formatSignedPct(pct: MaybeNumber, digits = 1): string {
  const word = nonFiniteText(pct);
  if (word !== undefined) return word;
  return `${pct! >= 0 ? '+' : ''}${pct!.toFixed(digits)} %`;
}

/** How many times one quantity is another: 1.13×, 2.35×, 145×. */
export function formatRatio(x: MaybeNumber): string {
  const word = nonFiniteText(x);
  if (word !== undefined) return word;
  return `${x! >= 10 ? x!.toFixed(0) : x!.toFixed(2)}×`;
}

/** An absolute difference, in exponent form below 0.01 where agreement differences live: 1.53e-5. */
export function formatAbsDiff(x: MaybeNumber): string {
  const word = nonFiniteText(x);
  if (word !== undefined) return word;
  if (x === 0) return '0';
  return Math.abs(x!) < 0.01 ? x!.toExponential(2) : x!.toPrecision(3);
}
