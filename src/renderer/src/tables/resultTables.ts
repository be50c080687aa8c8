/**
 * Rows for the Results and Runs tables, computed from the report so the .vue files only lay them
 * out. Pure; times in milliseconds.
 */
import { headlineTimeText, type ComparisonRow, type RunIndexEntry } from '../../../shared/api';
import type { Finding, Report, StageTime, StrategyComparison, StrategyResult, TimingStats } from '../../../shared/report';
import { autoProbeSentence } from '../../../shared/autoProbeText';
import { electrodeIndexOf, ELECTRODE_SPAN } from '../../../shared/traceSpans';
import { formatBytes, formatMs, formatMsPlusMinus, formatRatio, formatShare } from '../../../shared/format';
import { formatNumber } from '../lib/format';
import { externalMark, failureCell } from './externalRows';
import { slowestIndices, type SortValue } from './tableSort';

export interface TimingRow {
  strategy: string;
  /** what each electrode ran, when it differs from the strategy (auto) */
  resolved: string;
  /** auto's probe in a line, where it ran one: what it timed before committing, and its own time; '' otherwise */
  probe: string;
  ok: boolean;
  error?: string;
  /** a failed row's cell: "failed: …", or for an external engine that cannot run here "not available on this machine: …" */
  failure: string;
  /** an external engine's mark, "external · 2.1.3 · cpu · float32"; '' for the engine's own strategies */
  external: string;
  encode: string;
  decode: string;
  total: string;
  coldMs: number | null;
  encodeMedianMs: number | null;
  decodeMedianMs: number | null;
  totalMedianMs: number | null;
  /** reference's warm total over this one's: > 1 is faster */
  speedup: number | null;
  /** this total ÷ the reference's with the interval and its verdict: "0.47× [0.43, 0.50] faster" */
  verdict: string;
  /** the ratio behind `verdict`, for sorting */
  ratioToReference: number | null;
  /** faster, slower or no significant difference against reference; null where not told */
  verdictWord: StrategyComparison['verdict'] | null;
  /** each median's interval in words, for the cell's title */
  intervals: { encode: string; decode: string; total: string };
}

/**
 * A warm median with half its bootstrap 95 % interval, "100 ms ±3.5 %" (as the CLI prints it); a
 * report written before intervals existed (or a single repeat) shows median ± standard deviation,
 * and one call with no repeats (a decode) its time alone: it has no spread to show.
 */
export function medianPlusMinus(t: TimingStats | undefined): string {
  if (!t) return '–';
  if (t.n === 0) return formatMs(t.medianMs);
  if (t.ci95 && t.medianMs > 0) {
    const half = (t.ci95[1] - t.ci95[0]) / 2 / t.medianMs;
    return `${formatMs(t.medianMs)} ±${(half * 100).toFixed(half < 0.1 ? 1 : 0)} %`;
  }
  return formatMsPlusMinus(t.medianMs, t.stdMs);
}

/** "97 ms – 104 ms", the interval a median's ± stands for; '' without one */
export function intervalTitle(t: TimingStats | undefined): string {
  return t?.ci95 ? `95 % interval of the median: ${formatMs(t.ci95[0])} – ${formatMs(t.ci95[1])}` : '';
}

function ciEnd(x: number): string {
  return x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/** "0.47× [0.43, 0.50]": a ratio with its 95 % interval */
export function ratioWithInterval(ratio: number, ci: readonly [number, number]): string {
  return `${ciEnd(ratio)}× [${ciEnd(ci[0])}, ${ciEnd(ci[1])}]`;
}

/** "takes 1.05× [0.97, 1.16] the time of compensated: no significant difference" */
export function runnerUpText(c: StrategyComparison): string {
  return `takes ${ratioWithInterval(c.ratio, c.ratioCi95)} the time of ${c.against}: ${c.verdict}`;
}

/** "0.47× [0.43, 0.50] faster"; '–' where no interval could be told */
export function verdictText(c: StrategyComparison | undefined): string {
  return c ? `${ratioWithInterval(c.ratio, c.ratioCi95)} ${c.verdict}` : '–';
}

export function timingRows(report: Report): TimingRow[] {
  const reference = report.strategies.find((s) => s.strategy === 'reference' && s.status === 'ok');
  const refMs = reference?.total?.medianMs;
  return report.strategies.map((s: StrategyResult) => {
    const resolved = [...new Set(s.resolved)];
    const totalMs = s.total?.medianMs ?? null;
    return {
      strategy: String(s.strategy),
      resolved: resolved.length === 1 && resolved[0] === s.strategy ? '' : resolved.join(', '),
      probe: s.autoProbe ? autoProbeSentence(s.autoProbe) : '',
      ok: s.status === 'ok',
      error: s.error?.message,
      failure: s.status === 'ok' ? '' : failureCell(s),
      external: externalMark(s),
      encode: medianPlusMinus(s.encode),
      decode: medianPlusMinus(s.decode),
      total: medianPlusMinus(s.total),
      coldMs: s.total?.firstMs ?? null,
      encodeMedianMs: s.encode?.medianMs ?? null,
      decodeMedianMs: s.decode?.medianMs ?? null,
      totalMedianMs: totalMs,
      speedup: refMs !== undefined && totalMs !== null && totalMs > 0 ? refMs / totalMs : null,
      verdict: s.strategy === 'reference' ? 'reference' : verdictText(s.vsReference),
      ratioToReference: s.vsReference?.ratio ?? null,
      verdictWord: s.vsReference?.verdict ?? null,
      intervals: { encode: intervalTitle(s.encode), decode: intervalTitle(s.decode), total: intervalTitle(s.total) },
    };
  });
}

/** how many rows the sentence above a table singles out as the slowest */
export const CALLOUT_COUNT = 3;

export type TimingColumn = 'strategy' | 'encode' | 'decode' | 'total' | 'cold' | 'speedup' | 'verdict';

/** what a timing column sorts by: the warm medians, not their "± std" text */
export function timingSortValue(row: TimingRow, column: TimingColumn): SortValue {
  switch (column) {
    case 'strategy': return row.strategy;
    case 'encode': return row.encodeMedianMs;
    case 'decode': return row.decodeMedianMs;
    case 'total': return row.totalMedianMs;
    case 'cold': return row.coldMs;
    case 'speedup': return row.speedup;
    case 'verdict': return row.ratioToReference;
  }
}

/** "e5, e2 and e9" */
function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * The sentence above the timing table: the fastest strategy by warm total (with its speedup over
 * reference) and the slowest few; '' when fewer than two strategies finished. `warm` false: the
 * times are first calls (a run stopped before its repeats), and the sentence does not call them warm.
 */
export function timingCallout(rows: readonly TimingRow[], count = CALLOUT_COUNT, warm = true): string {
  const timed = rows.filter((r) => r.ok && r.totalMedianMs !== null);
  if (timed.length < 2) return '';
  const fastest = timed.reduce((best, r) => (r.totalMedianMs! < best.totalMedianMs! ? r : best));
  const speedup = fastest.strategy === 'reference' || fastest.speedup === null ? '' : speedupWords(fastest);
  const slow = slowestIndices(timed.map((r) => r.totalMedianMs), count).map((i) => `${timed[i]!.strategy} (${formatMs(timed[i]!.totalMedianMs)})`);
  return `Fastest ${warm ? 'warm ' : 'first-call '}total: ${fastest.strategy} (${formatMs(fastest.totalMedianMs)}${speedup}). Slowest: ${listText(slow)}.`;
}

/** against reference in the interval's terms: "2.00× faster than reference", or no significant difference */
function speedupWords(row: TimingRow): string {
  if (row.verdictWord === 'no significant difference') return ', no significant difference from reference';
  // a lower median whose interval still says slower (a skewed sample) is not called faster
  if (row.verdictWord === 'slower') return '';
  return `, ${formatSpeedup(row.speedup)} faster than reference`;
}

export interface ElectrodeRow {
  electrode: string;
  /** total time of this electrode's spans per strategy, in the order of `strategies` */
  totalMs: (number | null)[];
}

/** A strategy's time per electrode index: the electrode stage's breakdown, or the numbered stages of older reports. */
function electrodeTimes(stages: readonly StageTime[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const st of stages) {
    if (st.name === ELECTRODE_SPAN) for (const row of st.byElectrode ?? []) m.set(row.electrode, (m.get(row.electrode) ?? 0) + row.totalMs);
    else {
      const legacy = electrodeIndexOf(st.name, undefined);
      if (legacy >= 0) m.set(legacy, (m.get(legacy) ?? 0) + st.totalMs);
    }
  }
  return m;
}

/** per-electrode time from the report's electrode stage; empty when none was recorded */
export function electrodeRows(report: Report): { strategies: string[]; rows: ElectrodeRow[] } {
  const timed = report.strategies.map((s) => ({ s, m: electrodeTimes(s.stages) })).filter(({ m }) => m.size > 0);
  const withStages = timed.map(({ s }) => s);
  const byStrategy = timed.map(({ m }) => m);
  const indices = new Set(byStrategy.flatMap((m) => [...m.keys()]));
  const rows = [...indices].sort((a, b) => a - b).map((idx) => ({
    electrode: report.dataset.electrodes[idx]?.name ?? `e${idx}`,
    totalMs: byStrategy.map((m) => m.get(idx) ?? null),
  }));
  return { strategies: withStages.map((s) => String(s.strategy)), rows };
}

/**
 * The sentence above the per-electrode table: the slowest few electrodes under one strategy and
 * their share of that strategy's time on electrodes; '' when there is nothing to single out.
 */
export function electrodeCallout(table: { strategies: string[]; rows: ElectrodeRow[] }, strategyIndex: number, count = CALLOUT_COUNT): string {
  const strategy = table.strategies[strategyIndex];
  if (strategy === undefined) return '';
  const values = table.rows.map((r) => r.totalMs[strategyIndex] ?? null);
  const slow = slowestIndices(values, count);
  if (slow.length === 0) return '';
  const sum = values.reduce<number>((a, v) => a + (v ?? 0), 0);
  const top = slow.reduce((a, i) => a + values[i]!, 0);
  const names = slow.map((i) => `${table.rows[i]!.electrode} (${formatMs(values[i])})`);
  const share = sum > 0 ? `, ${slow.length > 1 ? 'together ' : ''}${formatShare(top / sum)} of its time on electrodes` : '';
  return `Slowest electrode${slow.length > 1 ? 's' : ''} under ${strategy}: ${listText(names)}${share}.`;
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

export function sortFindings<T extends Pick<Finding, 'severity'>>(findings: readonly T[]): T[] {
  return [...findings].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}

/** "reference 120 ms · compensated 48 ms": warm total medians as the run list shows them, a first call marked so */
export function headlineText(entry: RunIndexEntry): string {
  const parts = entry.headline.map(headlineTimeText).filter((t) => t !== undefined);
  return parts.length ? parts.join(' · ') : '–';
}

/**
 * The run list's cell: the times on its first line and, when every one is a first call, that
 * said once on a second line (the row has two lines anyway), so a narrow column cuts no marker.
 */
export function headlineCell(entry: RunIndexEntry): { times: string; note?: string } {
  const timed = entry.headline.filter((h) => headlineTimeText(h) !== undefined);
  if (timed.length === 0 || !timed.every((h) => h.firstCallOnly)) return { times: headlineText(entry) };
  const times = timed.map((h) => headlineTimeText({ ...h, firstCallOnly: false })!).join(' · ');
  return { times, note: timed.length > 1 ? 'first calls only' : 'first call only' };
}

export function formatSpeedup(x: number | null): string {
  return x === null || !Number.isFinite(x) ? '–' : formatRatio(x);
}

/** a comparison metric's value in its own unit, read from the metric's name ("… ms", "… bytes") */
export function formatMetric(metric: string, value: number | null): string {
  if (value === null) return '–';
  if (/\bbytes$/.test(metric)) return formatBytes(value);
  if (/\bms$/.test(metric)) return formatMs(value);
  return formatNumber(value);
}

/** A finding's id without the ":<strategy>" its analysis appends, since the strategy shows as its own tag. */
export function findingCode(code: string | undefined, strategy: string | undefined): string | undefined {
  if (code === undefined || !strategy) return code;
  const suffix = `:${strategy}`;
  return code.endsWith(suffix) && code.length > suffix.length ? code.slice(0, -suffix.length) : code;
}

export interface NotMeasuredItem {
  /** what the seeds measure ("HLO operation counts"); empty when the note names none */
  topic: string;
  detail: string;
}

/** "HLO operation counts: TensorFlow.js has no compiler IR…" split at its first colon for a list */
export function notMeasuredItems(notes: readonly string[]): NotMeasuredItem[] {
  return notes.map((note) => {
    const at = note.indexOf(': ');
    return at > 0 && at < 80 ? { topic: note.slice(0, at), detail: note.slice(at + 2) } : { topic: '', detail: note };
  });
}

/** A comparison row as the analysis sends it: with the interval of B/A where it could be told. */
export type JudgedRow = ComparisonRow;

/** "[0.95, 1.30]" for a row with an interval; '' without */
export function rowIntervalText(row: JudgedRow): string {
  return row.ratioCi95 ? `[${row.ratioCi95[0].toFixed(2)}, ${row.ratioCi95[1].toFixed(2)}]` : '';
}

/** "regression", "within noise" (the interval of B/A holds 1) or '' */
export function rowVerdictText(row: JudgedRow): string {
  if (row.regression) return 'regression';
  return row.withinNoise ? 'within noise' : '';
}

/**
 * The comparison's verdict for the line that already says "Regression (threshold 10 %):": the
 * analysis sentence opens with the same words ("B regresses beyond 10 %: …"), so that opening is
 * dropped and only what follows is shown.
 */
export function verdictDetail(verdict: string): string {
  const rest = verdict.replace(/^(B regresses beyond|No regression beyond) -?[\d.]+ %\s*[:;.]?\s*/, '').trim();
  return rest === '' ? 'no metric rose beyond it.' : rest;
}
