/**
 * Comparison of two runs' reports for `kde-profiler compare` and the UI: warm medians, first
 * calls and peak memory side by side, with the change in percent and a regression flag for a
 * lab's own CI (the CLI exits 3 when `regressed`, 4 when a timing change is inconclusive because a
 * run was measured on a busy machine).
 *
 * A warm median regresses only when it rose beyond the threshold AND the bootstrap interval of
 * B ÷ A excludes 1; a rise whose interval holds 1 is "within noise". A single sample (first calls,
 * backend start, a run of one repeat) has no interval and is shown, never flagged. Memory is
 * deterministic enough to be judged by the threshold alone.
 */
import type { Comparison, ComparisonRow } from '../../shared/api';
import type { Report, StrategyResult, TimingStats } from '../../shared/report';
import { formatBytes, formatMs, formatShare, formatSignedPct } from '../../shared/format';
import { ratioOfMediansCi95, type Interval } from './bootstrap';
import { totalTiming } from './results';
import { formatRatioCi } from './verdicts';

/** A row with what its judgement rests on; the extra fields travel with the row to every client. */
export interface JudgedComparisonRow extends ComparisonRow {
  /** bootstrap 95 % interval of B's median ÷ A's, for warm medians measured at least twice on both sides */
  ratioCi95?: Interval;
  /** the interval holds 1: the change cannot be told from run-to-run noise */
  withinNoise?: boolean;
  /** how the row was judged: by its interval, by the threshold alone (memory), or not at all (one sample) */
  judgedBy: 'interval' | 'threshold' | 'not judged';
}

export type JudgedComparison = Omit<Comparison, 'a' | 'b' | 'rows'> & { rows: JudgedComparisonRow[] };

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

type Judge = 'samples' | 'threshold' | 'none';

interface Side {
  value: number | undefined;
  /** the warm samples behind a median */
  samples?: readonly number[];
}

function row(metric: string, a: Side, b: Side, judge: Judge, thresholdPct: number): JudgedComparisonRow {
  const av = a.value ?? null;
  const bv = b.value ?? null;
  const deltaPct = deltaPercent(av, bv);
  const beyond = deltaPct !== null && deltaPct > thresholdPct;
  if (judge === 'threshold') return { metric, a: av, b: bv, deltaPct, regression: beyond, judgedBy: 'threshold' };
  const ci = judge === 'samples' && a.samples && b.samples ? ratioOfMediansCi95(b.samples, a.samples) : undefined;
  if (!ci) return { metric, a: av, b: bv, deltaPct, regression: false, judgedBy: 'not judged' };
  const withinNoise = ci[0] <= 1 && 1 <= ci[1];
  return { metric, a: av, b: bv, deltaPct, regression: beyond && ci[0] > 1, ratioCi95: ci, withinNoise, judgedBy: 'interval' };
}

type Metric = [string, Judge, (r: StrategyResult) => Side];

const median = (t: TimingStats | undefined): Side => ({ value: t?.medianMs, samples: t?.samplesMs });
const first = (t: TimingStats | undefined): Side => ({ value: t?.firstMs });

const STRATEGY_METRICS: readonly Metric[] = [
  ['encode median ms', 'samples', (r) => median(r.encode)],
  ['decode median ms', 'samples', (r) => median(r.decode)],
  ['total median ms', 'samples', (r) => median(totalTiming(r))],
  ['encode first ms', 'none', (r) => first(r.encode)],
  ['decode first ms', 'none', (r) => first(r.decode)],
  ['total first ms', 'none', (r) => first(totalTiming(r))],
  ['peak tensor bytes', 'threshold', (r) => ({ value: r.memory?.measuredPeakTensorBytes })],
  // an external engine's memory is its process tree's, sampled from outside
  ['peak RSS bytes', 'threshold', (r) => ({ value: r.memory?.peakRssBytes ?? r.external?.peakRssBytes })],
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
  const busy = busyWords(a, b);
  if (busy) notes.push(busy);
  return notes;
}

function loadOf(r: Report): string {
  const load = r.environment.load!;
  const avg = Math.max(load.loadAverageStart[0] ?? 0, load.loadAverageEnd[0] ?? 0).toFixed(2);
  const others = load.otherCpuShare === undefined ? '' : `, other processes ${formatShare(load.otherCpuShare)} of the CPU`;
  return `load ${avg} on ${r.environment.cpus} cores${others}`;
}

/**
 * A run measured on a busy machine: the intervals hold the noise within each run, not the
 * difference in load between the two, so a change may come from the machine rather than the code.
 */
function busyWords(a: Report, b: Report): string | undefined {
  const busy = ([['A', a], ['B', b]] as const).filter(([, r]) => r.environment?.load?.busy);
  if (busy.length === 0) return undefined;
  const which = busy.map(([side, r]) => `${side} (${loadOf(r)})`).join(' and ');
  return `${which} ${busy.length > 1 ? 'were' : 'was'} measured on a busy machine: a timing change may come from the load, not the code; ` +
    'compare runs measured on a quiet machine';
}

function formatValue(metric: string, v: number | null): string {
  if (v === null) return '—';
  if (metric.endsWith(' ms')) return formatMs(v);
  if (metric.endsWith(' bytes')) return formatBytes(v);
  return String(v);
}

/** "B/A 1.12× (95 % CI 0.95–1.30)" where the row has an interval */
export function rowIntervalText(r: JudgedComparisonRow): string {
  return r.ratioCi95 && r.a !== null && r.b !== null && r.a > 0 ? `B/A ${formatRatioCi(r.b / r.a, r.ratioCi95)}` : '';
}

function describeChange(r: JudgedComparisonRow): string {
  const interval = rowIntervalText(r);
  return `${r.metric.replace(/ (ms|bytes)$/, '')} ${formatSignedPct(r.deltaPct ?? 0)} ` +
    `(${formatValue(r.metric, r.a)} → ${formatValue(r.metric, r.b)}${interval ? `, ${interval}` : ''})`;
}

function named(rows: readonly JudgedComparisonRow[]): string {
  const more = rows.length > MAX_NAMED ? ` and ${rows.length - MAX_NAMED} more` : '';
  return `${rows.slice(0, MAX_NAMED).map(describeChange).join(', ')}${more}`;
}

const byRise = (x: JudgedComparisonRow, y: JudgedComparisonRow): number => (y.deltaPct ?? 0) - (x.deltaPct ?? 0);

function verdictOf(rows: readonly JudgedComparisonRow[], thresholdPct: number): string {
  const regressions = rows.filter((r) => r.regression).sort(byRise);
  if (regressions.length > 0) return `B regresses beyond ${thresholdPct} %: ${named(regressions)}.`;
  const noisy = rows.filter((r) => r.withinNoise && r.deltaPct !== null && r.deltaPct > thresholdPct).sort(byRise);
  if (noisy.length > 0) {
    return `No regression beyond ${thresholdPct} %: within noise, the interval of B/A holds 1 for ${named(noisy)}.`;
  }
  const largest = rows.filter((r) => r.deltaPct !== null && r.deltaPct > 0 && r.judgedBy !== 'not judged').sort(byRise)[0];
  const largestWords = largest ? `; largest increase ${describeChange(largest)}${largest.withinNoise ? ', within noise' : ''}` : '';
  return `No regression beyond ${thresholdPct} %${largestWords}.`;
}

export function compareReports(a: Report, b: Report, thresholdPct: number): JudgedComparison {
  const rows: JudgedComparisonRow[] = [row('backend init ms', { value: a.backend.initMs }, { value: b.backend.initMs }, 'none', thresholdPct)];
  for (const ra of a.strategies) {
    const rb = b.strategies.find((x) => x.strategy === ra.strategy);
    if (!rb) continue;
    for (const [name, judge, get] of STRATEGY_METRICS) {
      const [va, vb] = [get(ra), get(rb)];
      // a metric neither run measured (RSS without a sampler, say) is noise in the table
      if (va.value !== undefined || vb.value !== undefined) rows.push(row(`${ra.strategy} ${name}`, va, vb, judge, thresholdPct));
    }
  }
  // a timing regression between runs of which one was measured busy may be the load's doing;
  // memory is judged by the threshold alone and does not depend on the load
  const busySides = (['A', 'B'] as const).filter((side) => (side === 'A' ? a : b).environment?.load?.busy);
  const busy = busySides.length > 0;
  const timingRegressions = rows.filter((r) => r.regression && r.judgedBy === 'interval');
  const inconclusive = busy && timingRegressions.length > 0;
  const regressed = rows.some((r) => r.regression && !(inconclusive && r.judgedBy === 'interval'));
  let verdict = inconclusive && !regressed
    ? `Inconclusive (machine busy): B looks slower beyond ${thresholdPct} % (${named(timingRegressions.sort(byRise))}), but a run was measured on a busy machine.`
    : verdictOf(rows, thresholdPct);
  const notes = differences(a, b);
  if (!a.strategies.some((ra) => b.strategies.some((rb) => rb.strategy === ra.strategy))) {
    notes.unshift('no strategy ran in both');
  }
  if (notes.length > 0) verdict += ` Note: ${notes.join('; ')}.`;
  return { thresholdPct, rows, regressed, ...(inconclusive && !regressed ? { inconclusive: true } : {}), ...(busy ? { busy: busySides } : {}), verdict };
}

/** What the last column says: REGRESSION, within noise, or nothing. */
export function rowVerdict(r: JudgedComparisonRow): string {
  if (r.regression) return 'REGRESSION';
  return r.withinNoise ? 'within noise' : '';
}

function ratioCell(r: JudgedComparisonRow): string {
  if (!r.ratioCi95) return r.judgedBy === 'not judged' && r.a !== null && r.b !== null ? 'one sample' : '';
  return `[${r.ratioCi95[0].toFixed(2)}, ${r.ratioCi95[1].toFixed(2)}]`;
}

/** Aligned plain-text table: metric, A, B, change, the 95 % interval of B/A, and the verdict. */
export function formatComparisonTable(rows: readonly JudgedComparisonRow[]): string {
  const cells = [
    ['metric', 'A', 'B', 'change', 'B/A 95 % CI', ''],
    ...rows.map((r) => [
      r.metric,
      formatValue(r.metric, r.a),
      formatValue(r.metric, r.b),
      r.deltaPct === null ? '—' : formatSignedPct(r.deltaPct),
      ratioCell(r),
      rowVerdict(r),
    ]),
  ];
  const widths = cells[0]!.map((_, c) => Math.max(...cells.map((line) => line[c]!.length)));
  return cells
    .map((line) =>
      line
        .map((cell, c) => (c === 0 || c === 5 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
