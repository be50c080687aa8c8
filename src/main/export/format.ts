/**
 * Markdown-only formatting for the report: whole counts, check marks and tables. Quantities
 * (bytes, durations, shares, ratios, differences) print through src/shared/format, the same way
 * as in findings and the app.
 */
import { type MaybeNumber, nonFiniteText } from '../../shared/format';

/** 12,345: counts with thousands separators */
export function fmtInt(x: MaybeNumber): string {
  return nonFiniteText(x) ?? Math.round(x!).toLocaleString('en-US');
}

export function yesNo(ok: boolean, yes = '✅', no = '❌'): string {
  return ok ? yes : no;
}

/** Escapes what would break a table cell: pipes and line breaks. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function mdTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/** "1.18× (95 % CI 1.12–1.24)": a ratio with its interval, as the findings word it */
export function ratioWithCi(ratio: number, ci: readonly [number, number]): string {
  const end = (x: number): string => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
  return `${end(ratio)}× (95 % CI ${end(ci[0])}–${end(ci[1])})`;
}

/**
 * A measured figure to `digits` significant digits, so a float's representation noise
 * (3.5355339059327378) never reaches a reader: 3.54, 0.117, 1,235.
 */
export function fmtSig(x: MaybeNumber, digits = 3): string {
  const word = nonFiniteText(x);
  if (word !== undefined) return word;
  const rounded = Number(x!.toPrecision(digits));
  if (Math.abs(rounded) >= 1000) return rounded.toLocaleString('en-US');
  return String(rounded);
}

const SI_PREFIXES = ['', 'k', 'M', 'G', 'T', 'P'] as const;

/** A large count with an SI prefix to three digits, for FLOPs: 903.6 k → "904 k", 1.67e7 → "16.7 M". */
export function fmtSi(x: MaybeNumber): string {
  const word = nonFiniteText(x);
  if (word !== undefined) return word;
  let value = x!;
  let prefix = 0;
  while (Math.abs(Number(value.toPrecision(3))) >= 1000 && prefix < SI_PREFIXES.length - 1) {
    value /= 1000;
    prefix++;
  }
  const unit = SI_PREFIXES[prefix]!;
  return unit === '' ? fmtSig(value) : `${fmtSig(value)} ${unit}`;
}
