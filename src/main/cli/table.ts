/** Plain aligned text tables for the terminal. */

export function table(rows: string[][]): string {
  if (rows.length === 0) return '';
  // a loop, not Math.max(...column): `list --all` on a large runs folder passes more rows than a call takes arguments
  const widths = rows[0]!.map((_, i) => rows.reduce((w, r) => Math.max(w, (r[i] ?? '').length), 0));
  return rows.map((r) => r.map((c, i) => (c ?? '').padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}
