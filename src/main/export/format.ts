/**
 * Number and table formatting shared by the Markdown report. A value JSON could not carry
 * (NaN, ±Infinity, or null after a round trip) prints as a word, never as a made-up number.
 */

type Num = number | null | undefined;

function bad(x: Num): string | undefined {
  if (x === null || x === undefined) return 'n/a';
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  return undefined;
}

/** 2408.2 ms, 63.94 ms, 0.460 ms */
export function fmtMs(x: Num): string {
  const b = bad(x);
  if (b !== undefined) return b;
  const v = x as number;
  const a = Math.abs(v);
  const digits = a >= 100 ? 1 : a >= 10 ? 2 : 3;
  return `${v.toFixed(digits)} ms`;
}

export function fmtMsPlusMinus(mean: Num, std: Num): string {
  return `${fmtMs(mean)} ± ${fmtMs(std)}`;
}

/** binary units, as memory is reported by the OS and tfjs */
export function fmtBytes(x: Num): string {
  const b = bad(x);
  if (b !== undefined) return b;
  const v = x as number;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  let s = Math.abs(v);
  while (s >= 1024 && u < units.length - 1) {
    s /= 1024;
    u++;
  }
  const sign = v < 0 ? '-' : '';
  return u === 0 ? `${sign}${s} B` : `${sign}${s.toFixed(s >= 100 ? 0 : s >= 10 ? 1 : 2)} ${units[u]}`;
}

/** 1.53e-05 */
export function fmtSci(x: Num): string {
  const b = bad(x);
  if (b !== undefined) return b;
  return x === 0 ? '0' : (x as number).toExponential(2);
}

/** a share 0..1 as a percentage */
export function fmtPct(x: Num, digits = 1): string {
  const b = bad(x);
  if (b !== undefined) return b;
  return `${((x as number) * 100).toFixed(digits)} %`;
}

export function fmtRatio(x: Num): string {
  const b = bad(x);
  if (b !== undefined) return b;
  const v = x as number;
  return `${v.toFixed(v >= 10 ? 1 : 2)}×`;
}

export function fmtInt(x: Num): string {
  const b = bad(x);
  if (b !== undefined) return b;
  return Math.round(x as number).toLocaleString('en-US');
}

export function yesNo(ok: boolean, yes = '✅', no = '❌'): string {
  return ok ? yes : no;
}

/** Escapes what would break a table cell: pipes and line breaks. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function mdTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
