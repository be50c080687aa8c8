/**
 * A sweep: one size of the data varied over a list of values, each value a recorded run, and what
 * the runs say together: each strategy's medians with their 95 % intervals at every value, log-log
 * slopes (how the time grows with the size), and where the fastest strategy changes. Written as
 * sweep.json in `<runsDir>/sweeps/<id>/`; the app reads it through ProfilerApi (listSweeps, getSweep).
 */
import type { RunConfig } from './config';
import { formatMs } from './format';
import { assertIdOfRunRule, isRunId } from './runIds';

export const SWEEP_FORMAT = 'kde-profiler-sweep/1';

export const SWEEP_VARIABLES = ['encoding-spikes', 'decoding-spikes', 'bins', 'features', 'electrodes'] as const;
export type SweepVariable = (typeof SWEEP_VARIABLES)[number];

/** what each variable counts: axis titles and table headers */
export const SWEEP_VARIABLE_TEXT: Record<SweepVariable, string> = {
  'encoding-spikes': 'encoding spikes per electrode',
  'decoding-spikes': 'decoding spikes per electrode',
  bins: 'position bins',
  features: 'mark features (D)',
  electrodes: 'electrodes',
};

/** the largest mark dimension a sweep may ask for */
export const MAX_SWEEP_FEATURES = 32;

export function isSweepVariable(v: unknown): v is SweepVariable {
  return typeof v === 'string' && (SWEEP_VARIABLES as readonly string[]).includes(v);
}

/** Sweep ids follow the run-id rule (creation time, then random hex), so they are safe folder names too. */
export const isSweepId: (v: unknown) => v is string = isRunId;

export function assertSweepId(v: unknown, key = 'sweepId'): string {
  return assertIdOfRunRule(v, key, 'sweep');
}

/** One strategy's time for one metric at one value of the sweep. */
export interface SweepPoint {
  ms: number;
  /** bootstrap 95 % interval of the median; null with one repeat, and for report stages (kept as sums over the repeats) */
  ci95: [number, number] | null;
  /** warm repeats behind the number */
  n: number;
}

/** time ≈ scaleMs · value^exponent, fitted by least squares on log(time) against log(value) */
export interface LogLogSlope {
  /** 1: time grows in proportion to the value; 2: with its square; 0: not at all */
  exponent: number;
  scaleMs: number;
  /** share of the variance of log(time) the line explains; null with two points (a line fits any two) */
  r2: number | null;
  points: number;
  /**
   * true when the line is no scaling law: the exponent is negative, the fitted time barely changes
   * across the swept range, or a straight line time = fixed + rate · value puts most of the time
   * in its fixed part. Absent in sweeps saved before the judgement existed.
   */
  fixedCostDominates?: boolean;
}

export interface SweepSeries {
  /** 'total', 'encode', 'decode', or a stage of the reports ('mark-kernel', …) */
  metric: string;
  /**
   * 'median' for the timed calls; stages are known only as sums over the repeats (and over the
   * engine's workers, which run at once), so their mean per repeat, which can exceed the wall time
   */
  statistic: 'median' | 'mean per repeat';
  /** aligned with SweepResult.values; null where that value's run has no such measurement */
  points: (SweepPoint | null)[];
  slope: LogLogSlope | null;
}

export interface SweepStrategy {
  strategy: string;
  /** total, encode and decode first, then the reports' stages */
  series: SweepSeries[];
}

/** Where the fastest strategy (by total median) changes between two consecutive values. */
export interface SweepCrossover {
  /** fastest at `below` */
  from: string;
  /** fastest at `above` */
  to: string;
  below: number;
  above: number;
  /** where the two strategies' lines cross, interpolated on log-log axes; null when one lacks a time at either end */
  at: number | null;
  /** the total time of both at `at` */
  atMs: number | null;
  /** the intervals separate the two at both ends: `from` below `to` at `below`, and the other way round at `above` */
  significant: boolean;
  text: string;
}

export type SweepStatus = 'running' | 'completed' | 'failed' | 'interrupted';

/** The sizes a value's run actually had (a preset's Poisson draws scatter around the value asked for). */
export interface SweepDatasetSizes {
  nElectrodes: number;
  meanEncodingSpikes: number;
  meanDecodingSpikes: number;
  nBins: number;
  features: number;
}

export interface SweepRun {
  value: number;
  /** null until the value's run has been started */
  runId: string | null;
  status: 'pending' | 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  /** the data file the run read (the sweep writes one per value) */
  dataPath: string;
  dataset?: SweepDatasetSizes;
  error?: string;
}

export interface SweepResult {
  format: typeof SWEEP_FORMAT;
  id: string;
  createdAt: string;
  updatedAt: string;
  status: SweepStatus;
  label?: string;
  vary: SweepVariable;
  /** ascending */
  values: number[];
  /** aligned with values */
  runIds: (string | null)[];
  runs: SweepRun[];
  /** what was swept: preset:NAME or the data file's path */
  data: string;
  /** the run configuration every value shares; each run reads its own data file instead of `data` */
  config: RunConfig;
  strategies: SweepStrategy[];
  /** every metric of the strategies, in the order to show them: total, encode, decode, then the engine's stages in its order */
  metrics: string[];
  /** the strategy with the lowest total median at each value; null where none completed */
  fastest: (string | null)[];
  /** the fastest where its 95 % interval is clear of the runner-up's; null where noise could swap them */
  clearlyFastest: (string | null)[];
  crossovers: SweepCrossover[];
  /** one sentence: the crossovers, or that there is none in range and who wins throughout */
  conclusion: string;
  /** what weakens the numbers, such as runs measured while the machine was busy */
  warnings: string[];
  notes: string[];
}

export interface SweepSummary {
  id: string;
  createdAt: string;
  status: SweepStatus;
  label?: string;
  vary: SweepVariable;
  values: number[];
  data: string;
  strategies: string[];
  crossovers: number;
  conclusion: string;
}

export function sweepSummaryOf(s: SweepResult): SweepSummary {
  const summary: SweepSummary = {
    id: s.id, createdAt: s.createdAt, status: s.status, vary: s.vary, values: [...s.values], data: s.data,
    strategies: s.strategies.map((x) => x.strategy), crossovers: s.crossovers.length, conclusion: s.conclusion,
  };
  if (s.label !== undefined) summary.label = s.label;
  return summary;
}

/** A strategy's total time series (every sweep has one, first). */
export function totalSeries(s: SweepStrategy): SweepSeries {
  return s.series.find((x) => x.metric === 'total')!;
}

/** "1 600", "566", "12.5": a value of the swept size as a person reads it */
export function formatSweepValue(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return Math.abs(x) >= 100 ? Math.round(x).toLocaleString('en-US').replace(/,/g, ' ') : String(Number(x.toPrecision(3)));
}

/** "12.3 ms ±4 %" for a table cell */
export function sweepPointText(p: SweepPoint | null | undefined): string {
  if (!p) return '-';
  if (!p.ci95) return formatMs(p.ms);
  const half = (p.ci95[1] - p.ci95[0]) / 2 / p.ms;
  return `${formatMs(p.ms)} ±${(half * 100).toFixed(half < 0.1 ? 1 : 0)} %`;
}

/** The sentence a sweep prints instead of a scaling law when the fixed cost dominates. */
export function fixedCostText(vary: SweepVariable): string {
  return `fixed cost dominates: time does not grow with ${SWEEP_VARIABLE_TEXT[vary]} over this range`;
}

/** "1.02" for a scaling law; "fixed cost" where the exponent would read as one and is not */
export function slopeExponentText(slope: LogLogSlope | null | undefined): string {
  if (!slope) return '-';
  return slope.fixedCostDominates ? 'fixed cost' : slope.exponent.toFixed(2);
}
