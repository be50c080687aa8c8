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
