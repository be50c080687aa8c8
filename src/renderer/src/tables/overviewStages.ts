/**
 * Where the time goes, for the Results overview: the run's parts in order (fit, likelihood, local
 * likelihood, filter, smoother) and, for a profiling run, the stages inside its fit and likelihood
 * by their own time. Pure; times in milliseconds.
 */
import type { Report, StageTime, StrategyResult } from '../../../shared/report';
import { BLOCK_SPAN, CHUNK_SPAN, ELECTRODE_SPAN, WINDOWS_SPAN } from '../../../shared/traceSpans';
import { formatMs, formatShare } from '../../../shared/format';

export interface StageSegment {
  name: string;
  ms: number;
  /** of the segments' sum, 0–1 */
  share: number;
}

export interface StageBar {
  segments: StageSegment[];
  totalMs: number;
  /** what the times are: "warm medians of compensated", "one call each" */
  note: string;
}

/** stages inside the compute bar: this many by their own time, the rest as one */
const COMPUTE_SEGMENTS = 5;

/**
 * Spans that wrap a phase, not compute: with workers their own time is the wait for the workers'
 * spans, so counted they would be the largest "stage" of every run.
 */
const PHASE_SPANS: ReadonlySet<string> = new Set(['encode', 'decode', WINDOWS_SPAN, 'posterior', 'filter', 'smooth']);
/** spans whose own time is the loop around the kernels: one "bookkeeping" segment */
const LOOP_SPANS: ReadonlySet<string> = new Set([ELECTRODE_SPAN, BLOCK_SPAN, CHUNK_SPAN]);

function barOf(parts: readonly (readonly [string, number | undefined])[], note: string): StageBar | null {
  const kept = parts.filter((x): x is [string, number] => x[1] !== undefined && Number.isFinite(x[1]) && x[1] > 0);
  const totalMs = kept.reduce((a, [, ms]) => a + ms, 0);
  if (kept.length === 0 || totalMs <= 0) return null;
  return { segments: kept.map(([name, ms]) => ({ name, ms, share: ms / totalMs })), totalMs, note };
}

/** The run's parts in order, with the times of `base` (the fastest strategy). */
export function phasesOf(report: Report, base: StrategyResult, label: string): StageBar | null {
  const p = report.posterior;
  const once = base.total?.n === 0;
  const note = once ? `one call each, ${label}` : `warm medians of ${label}${p || report.local ? '; the local likelihood and the posterior once' : ''}`;
  return barOf([
    ['fit', base.encode?.medianMs],
    ['likelihood', base.decode?.medianMs],
    ['local likelihood', report.local?.timing.medianMs ?? p?.localMs],
    ['filter', p?.filterMs],
    ['smoother', p?.smoothMs],
  ], note);
}

/**
 * Inside the fit and the likelihood of a run with warm repeats: each stage's own time over all its
 * threads, the largest few by name and the rest as one. A decode's one call has its windows'
 * stages instead, which the parts above already say.
 */
export function computeStagesOf(base: StrategyResult, label: string): StageBar | null {
  if (!base.total || base.total.n === 0) return null;
  const compute = base.stages.filter((st: StageTime) => !PHASE_SPANS.has(st.name) && st.selfMs > 0);
  const loops = compute.filter((st) => LOOP_SPANS.has(st.name)).reduce((a, st) => a + st.selfMs, 0);
  const named = compute.filter((st) => !LOOP_SPANS.has(st.name)).sort((a, b) => b.selfMs - a.selfMs);
  if (named.length === 0) return null;
  const rest = named.slice(COMPUTE_SEGMENTS).reduce((a, st) => a + st.selfMs, 0);
  return barOf([
    ...named.slice(0, COMPUTE_SEGMENTS).map((st) => [st.name, st.selfMs] as const),
    ['other stages', rest],
    ['electrode and block loops', loops],
  ], `inside ${label}'s fit and likelihood, each stage's own ${clockWords(compute)} over its ${base.total.n} repeats, all threads`);
}

/**
 * On webgpu the stages' times are the GPU's (their host spans only queue the work): the bar says
 * so. A device that cannot time its stages reports none (selfMs 0), so it has no bar at all.
 */
function clockWords(stages: readonly StageTime[]): string {
  return stages.some((st) => st.clock === 'gpu') ? 'GPU time (timestamp queries)' : 'time';
}

/** "likelihood 1.4 min (63 %)": a segment's name, time and share, for its label and its title */
export function segmentLabel(s: StageSegment): string {
  return `${s.name} ${formatMs(s.ms)} (${formatShare(s.share, 0)})`;
}
