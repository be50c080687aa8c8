/** The bench's table: medians per strategy with ratios to `reference` (> 1 means slower). */
export interface Cell {
  strategy: string;
  firstMs: number;
  fitMedianMs: number;
  predictMedianMs: number;
  totalMedianMs: number;
  n: number;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const ms = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

/** a titled table: the first column left-aligned, the others right-aligned, a rule under the header */
export function printColumns(title: string, header: readonly string[], rows: readonly string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: readonly string[]) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

export function printTable(title: string, cells: Cell[]): void {
  const ref = cells.find((c) => c.strategy === 'reference');
  const header = ['strategy', 'first (ms)', 'fit med (ms)', 'predict med (ms)', 'total med (ms)', 'n', '× reference'];
  const rows = cells.map((c) => [
    c.strategy,
    ms(c.firstMs),
    ms(c.fitMedianMs),
    ms(c.predictMedianMs),
    ms(c.totalMedianMs),
    String(c.n),
    ref ? (c.totalMedianMs / ref.totalMedianMs).toFixed(2) : '–',
  ]);
  printColumns(title, header, rows);
}
