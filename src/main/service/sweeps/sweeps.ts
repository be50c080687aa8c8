/**
 * Sweeps on disk: a folder kind beside the runs, `<runsDir>/sweeps/<id>/` with sweep.json (the
 * values, their runs, each strategy's medians with intervals, slopes and crossovers), sweep.csv
 * (one row per value, strategy and metric) and data/ (the file each value's run read). The runs
 * themselves stay ordinary runs of the run store; its listing never sees this folder, whose name
 * is not a run id. Written whole and atomically after every value, so a reader sees a sweep as it
 * grows and never half a file.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunConfig } from '../../../shared/config';
import type { DatasetSummary } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import type { Report } from '../../../shared/report';
import {
  assertSweepId, formatSweepValue, isSweepId, isSweepVariable, SWEEP_FORMAT, sweepSummaryOf, type SweepDatasetSizes, type SweepResult, type SweepRun, type SweepStatus,
  type SweepSummary, type SweepVariable,
} from '../../../shared/sweep';
import { analyseSweep } from '../../analysis';
import { writeSweepFiles, type SweepDataFile, type SweepFilesRequest } from '../../data';
import { storeWrite, writeJsonAtomic, writeTextAtomic } from '../store';

export const SWEEPS_DIR = 'sweeps';
export const SWEEP_FILES = { json: 'sweep.json', csv: 'sweep.csv', data: 'data' } as const;

export function sweepDir(runsDir: string, id: string): string {
  return join(runsDir, SWEEPS_DIR, assertSweepId(id));
}

/** Makes the sweep's folder and its data/ folder; returns the data folder. */
export async function createSweepFolder(runsDir: string, id: string): Promise<string> {
  const data = join(sweepDir(runsDir, id), SWEEP_FILES.data);
  await storeWrite(runsDir, () => mkdir(data, { recursive: true }));
  return data;
}

/** Removes a sweep's folder (a sweep whose data could not be made leaves nothing behind); its runs stay. */
export async function deleteSweepFolder(runsDir: string, id: string): Promise<void> {
  await rm(sweepDir(runsDir, id), { recursive: true, force: true });
}

/** What a sweep is asked to do, fixed before its first run. */
export interface SweepPlan {
  id: string;
  createdAt: string;
  label?: string;
  vary: SweepVariable;
  values: number[];
  data: string;
  config: RunConfig;
  notes: string[];
}

/** The sizes a run's dataset had, as the sweep states them beside the value asked for. */
export function sizesOf(d: DatasetSummary): SweepDatasetSizes {
  const per = (total: number): number => (d.nElectrodes > 0 ? total / d.nElectrodes : 0);
  return {
    nElectrodes: d.nElectrodes,
    meanEncodingSpikes: per(d.nEncodingSpikes),
    meanDecodingSpikes: per(d.nDecodingSpikes),
    nBins: d.nBins,
    features: Math.max(0, ...d.featureDims),
  };
}

/** Runs measured while other processes competed for the cores: their times, and so the crossovers, may move on a quiet machine. */
function busyWarning(plan: SweepPlan, reports: readonly (Report | null)[]): string[] {
  const busy = plan.values.filter((_, i) => reports[i]?.environment.load?.busy === true);
  if (busy.length === 0) return [];
  const measured = reports.filter((r) => r !== null).length;
  return [`${busy.length} of ${measured} runs (${plan.vary} ${busy.map(formatSweepValue).join(', ')}) were measured while the machine was busy; ` +
    'their times and the crossovers may move on a quiet machine.'];
}

/** The sweep as it stands: its runs so far and what their reports say together. */
export function sweepResultOf(plan: SweepPlan, runs: readonly SweepRun[], reports: readonly (Report | null)[], status: SweepStatus): SweepResult {
  const analysis = analyseSweep({ vary: plan.vary, values: plan.values, reports });
  const result: SweepResult = {
    format: SWEEP_FORMAT,
    id: plan.id,
    createdAt: plan.createdAt,
    updatedAt: new Date().toISOString(),
    status,
    vary: plan.vary,
    values: [...plan.values],
    runIds: runs.map((r) => r.runId),
    runs: runs.map((r) => ({ ...r })),
    data: plan.data,
    config: plan.config,
    ...analysis,
    warnings: [...analysis.warnings, ...busyWarning(plan, reports)],
    notes: [...plan.notes],
  };
  if (plan.label !== undefined) result.label = plan.label;
  return result;
}

function csvCell(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One row per value, strategy and metric; the slope of the strategy's metric repeated on each, for spreadsheets. */
export function sweepCsv(s: SweepResult): string {
  const rows: (string | number | null)[][] = [[
    'vary', 'value', 'run_id', 'strategy', 'metric', 'statistic', 'ms', 'ci95_lo_ms', 'ci95_hi_ms', 'n', 'loglog_slope', 'slope_r2', 'fastest',
    'fastest_beyond_noise', 'fixed_cost_dominates',
  ]];
  s.values.forEach((value, i) => {
    for (const strategy of s.strategies) {
      for (const series of strategy.series) {
        const p = series.points[i];
        if (!p) continue;
        const total = series.metric === 'total';
        rows.push([
          s.vary, value, s.runIds[i] ?? null, strategy.strategy, series.metric, series.statistic, p.ms, p.ci95?.[0] ?? null, p.ci95?.[1] ?? null, p.n,
          series.slope?.exponent ?? null, series.slope?.r2 ?? null,
          total ? String(s.fastest[i] === strategy.strategy) : null, total ? String(s.clearlyFastest[i] === strategy.strategy) : null,
          series.slope?.fixedCostDominates === undefined ? null : String(series.slope.fixedCostDominates),
        ]);
      }
    }
  });
  return rows.map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
}

export async function saveSweep(runsDir: string, s: SweepResult): Promise<void> {
  const dir = sweepDir(runsDir, s.id);
  await writeJsonAtomic(join(dir, SWEEP_FILES.json), s, runsDir);
  await writeTextAtomic(join(dir, SWEEP_FILES.csv), sweepCsv(s), runsDir);
}

const isNumberArray = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number');
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Enough of the shape that the views can draw it; a file that fails this is not a sweep of this version. */
function isSweepResult(v: unknown): v is SweepResult {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Partial<SweepResult>;
  return s.format === SWEEP_FORMAT && isSweepId(s.id) && isSweepVariable(s.vary) && isNumberArray(s.values) && Array.isArray(s.runIds) &&
    s.runIds.length === s.values.length && Array.isArray(s.runs) && Array.isArray(s.strategies) && isStringArray(s.metrics) && Array.isArray(s.crossovers) &&
    Array.isArray(s.fastest) && Array.isArray(s.clearlyFastest) && Array.isArray(s.warnings) && typeof s.createdAt === 'string' && typeof s.conclusion === 'string';
}

/** The sweep's sweep.json; NOT_FOUND without it, IO when it is not a sweep. */
export async function readSweep(runsDir: string, id: unknown): Promise<SweepResult> {
  const sweepId = assertSweepId(id);
  const path = join(sweepDir(runsDir, sweepId), SWEEP_FILES.json);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new AppError('IO', `cannot read ${path}: ${(e as Error).message}`, { file: path });
    throw new AppError('NOT_FOUND', `no sweep ${sweepId} in ${join(runsDir, SWEEPS_DIR)}: it was deleted, or belongs to another runs folder.`, { key: sweepId });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = undefined;
  }
  if (!isSweepResult(raw) || raw.id !== sweepId) {
    throw new AppError('IO', `${path} is not a sweep this version reads (format ${SWEEP_FORMAT}); run the sweep again.`, { file: path });
  }
  return raw;
}

/** Every readable sweep of the runs folder, newest first; a folder without a readable sweep.json is left out. */
export async function listSweeps(runsDir: string): Promise<SweepSummary[]> {
  let names: string[];
  try {
    names = (await readdir(join(runsDir, SWEEPS_DIR))).filter(isSweepId);
  } catch {
    return [];
  }
  const out: SweepSummary[] = [];
  for (const name of names) {
    const s = await readSweep(runsDir, name).catch(() => null);
    if (s) out.push(sweepSummaryOf(s));
  }
  return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

export type { SweepDataFile };

export interface SweepDataRequest extends SweepFilesRequest {
  /** the runs folder, named when a write fails */
  runsDir: string;
}

/** Writes every value's data file into the sweep's folder; a failed write names the runs folder. */
export async function writeSweepData(req: SweepDataRequest): Promise<SweepDataFile[]> {
  return writeSweepFiles(req, (write) => storeWrite(req.runsDir, write));
}
