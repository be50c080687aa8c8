/**
 * Comparison of two runs' reports for `kde-profiler compare` and the UI: warm medians, first
 * calls and peak memory side by side, with the change in percent and a regression flag for a
 * lab's own CI (the CLI exits 3 when `regressed`).
 */
import type { Comparison, ComparisonRow } from '../../shared/api';
import type { Report, StrategyResult } from '../../shared/report';
import { formatBytes, formatMs, formatSignedPct } from '../../shared/format';
import { totalTiming } from './results';

const MAX_NAMED = 3;

/**
 * (b − a) / a in percent. Undefined (null) when either side is missing, or when a is 0 and b is
 * not: no ratio describes growth from nothing, so such a row is shown but never flagged.
 */
export function deltaPercent(a: number | null, b: number | null): number | null {
  if (a === null || b === null || !Number.isFinite(a) || !Number.isFinite(b)) return null;
  if (a === 0) return b === 0 ? 0 : null;
  return ((b - a) / Math.abs(a)) * 100;
}

function row(metric: string, a: number | undefined, b: number | undefined, thresholdPct: number): ComparisonRow {
  const av = a ?? null;
  const bv = b ?? null;
  const deltaPct = deltaPercent(av, bv);
  return { metric, a: av, b: bv, deltaPct, regression: deltaPct !== null && deltaPct > thresholdPct };
}

type Metric = [string, (r: StrategyResult) => number | undefined];

const STRATEGY_METRICS: readonly Metric[] = [
  ['encode median ms', (r) => r.encode?.medianMs],
  ['decode median ms', (r) => r.decode?.medianMs],
  ['total median ms', (r) => totalTiming(r)?.medianMs],
  ['encode first ms', (r) => r.encode?.firstMs],
  ['decode first ms', (r) => r.decode?.firstMs],
  ['total first ms', (r) => totalTiming(r)?.firstMs],
  ['peak tensor bytes', (r) => r.memory?.measuredPeakTensorBytes],
  ['peak RSS bytes', (r) => r.memory?.peakRssBytes],
];

function differences(a: Report, b: Report): string[] {
  const notes: string[] = [];
  if (a.dataset.source !== b.dataset.source) notes.push(`datasets differ (${a.dataset.source} vs ${b.dataset.source})`);
  if (a.backend.name !== b.backend.name || a.backend.device !== b.backend.device) {
    const on = (r: Report): string => `${r.backend.name} on ${r.backend.device}`;
    notes.push(`backends differ (${on(a)} vs ${on(b)})`);
  }
  const namesA = new Set(a.strategies.map((r) => r.strategy));
  const namesB = new Set(b.strategies.map((r) => r.strategy));
  const onlyA = [...namesA].filter((s) => !namesB.has(s));
  const onlyB = [...namesB].filter((s) => !namesA.has(s));
  if (onlyA.length > 0) notes.push(`only in A: ${onlyA.join(', ')}`);
  if (onlyB.length > 0) notes.push(`only in B: ${onlyB.join(', ')}`);
  return notes;
}

function formatValue(metric: string, v: number | null): string {
  if (v === null) return '—';
  if (metric.endsWith(' ms')) return formatMs(v);
  if (metric.endsWith(' bytes')) return formatBytes(v);
  return String(v);
}

function describeChange(r: ComparisonRow): string {
  return `${r.metric.replace(/ (ms|bytes)$/, '')} ${formatSignedPct(r.deltaPct ?? 0)} ` +
    `(${formatValue(r.metric, r.a)} → ${formatValue(r.metric, r.b)})`;
}

export function compareReports(a: Report, b: Report, thresholdPct: number): Omit<Comparison, 'a' | 'b'> {
  const rows: ComparisonRow[] = [row('backend init ms', a.backend.initMs, b.backend.initMs, thresholdPct)];
  for (const ra of a.strategies) {
    const rb = b.strategies.find((x) => x.strategy === ra.strategy);
    if (!rb) continue;
    for (const [name, get] of STRATEGY_METRICS) {
      const [va, vb] = [get(ra), get(rb)];
      // a metric neither run measured (RSS without a sampler, say) is noise in the table
      if (va !== undefined || vb !== undefined) rows.push(row(`${ra.strategy} ${name}`, va, vb, thresholdPct));
    }
  }
  const regressions = rows.filter((r) => r.regression).sort((x, y) => (y.deltaPct ?? 0) - (x.deltaPct ?? 0));
  const regressed = regressions.length > 0;
  let verdict: string;
  if (regressed) {
    const named = regressions.slice(0, MAX_NAMED).map(describeChange).join(', ');
    const more = regressions.length > MAX_NAMED ? ` and ${regressions.length - MAX_NAMED} more` : '';
    verdict = `B regresses beyond ${thresholdPct} %: ${named}${more}.`;
  } else {
    const largest = rows
      .filter((r) => r.deltaPct !== null && r.deltaPct > 0)
      .sort((x, y) => (y.deltaPct ?? 0) - (x.deltaPct ?? 0))[0];
    const largestWords = largest ? `; largest increase ${describeChange(largest)}` : '';
    verdict = `No regression beyond ${thresholdPct} %${largestWords}.`;
  }
  const notes = differences(a, b);
  if (!a.strategies.some((ra) => b.strategies.some((rb) => rb.strategy === ra.strategy))) {
    notes.unshift('no strategy ran in both');
  }
  if (notes.length > 0) verdict += ` Note: ${notes.join('; ')}.`;
  return { thresholdPct, rows, regressed, verdict };
}

/** Aligned plain-text table: metric, A, B, change, and a REGRESSION flag. */
export function formatComparisonTable(rows: readonly ComparisonRow[]): string {
  const cells = [
    ['metric', 'A', 'B', 'change', ''],
    ...rows.map((r) => [
      r.metric,
      formatValue(r.metric, r.a),
      formatValue(r.metric, r.b),
      r.deltaPct === null ? '—' : formatSignedPct(r.deltaPct),
      r.regression ? 'REGRESSION' : '',
    ]),
  ];
  const widths = cells[0]!.map((_, c) => Math.max(...cells.map((line) => line[c]!.length)));
  return cells
    .map((line) =>
      line
        .map((cell, c) => (c === 0 || c === 4 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
