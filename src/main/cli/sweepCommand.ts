/**
 * `kde-profiler sweep`: one size of the data varied over a list of values, each value a recorded
 * run through the service (listed and opened like any run, labelled `sweep <id> <name>=<value>`),
 * one after another. After every run the sweep's folder (`<runsDir>/sweeps/<id>/`) gets sweep.json
 * and sweep.csv as they stand; at the end the table of medians, the slopes and the crossovers.
 * Ctrl-C cancels the run under way and keeps what the sweep has.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { RunConfig } from '../../shared/config';
import { AppError } from '../../shared/errors';
import type { Report } from '../../shared/report';
import { isSweepVariable, SWEEP_VARIABLES, type SweepRun, type SweepStatus, type SweepVariable } from '../../shared/sweep';
import { formatSweepValue, sweepPointText, totalSeries } from '../../shared/sweep';
import {
  createSweepFolder, deleteSweepFolder, newRunId, saveSweep, sizesOf, SWEEP_FILES, sweepDir, sweepResultOf, writeSweepData,
  type ProfilerService, type SweepPlan,
} from '../service';
import { boolFlag, parseFlags, stringFlag, type Parsed } from './args';
import { engineModelOf } from '../../shared/externalEngines';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { resolveNwbData } from './nwbData';
import { withService } from './cliService';
import { withEveryProblemPointer } from './dataProblems';
import { checkOutputFolder } from './outputChecks';
import { writeOutputFile } from './outputFiles';
import { followRun } from './runCommand';
import { RUN_OPTIONS, runConfigFromFlags } from './runFlags';
import { runningServer } from './serverLink';
import { sweepText } from './sweepText';

const SWEEP_USAGE = `kde-profiler sweep --data preset:NAME|FILE --vary NAME=V1,V2,… [--strategy NAME[,NAME…]|all]
                   [--repeats N|auto] [--max-time S] [--warmup N] [--backend auto|wasm|cpu|webgpu|tensorflow]
                   [--workers N] [--seed N] [--features D] [--feature-scale F] [--recipe FILE.recipe.json]
                   [--block-size N] [--enc-tile N] [--pos-tile N] [--memory-budget-mb MB] [--local]
                   [--no-trace] [--no-kernel-profile] [--allow-tf32] [--label TEXT] [--runs-dir DIR] [--out DIR]
                   [--engine NAME]… [--python PATH] [--engine-timeout S] [--engine-trace] (external engines at each value, as in run)
  NAME: ${SWEEP_VARIABLES.join(', ')} (features up to 32). A preset is generated at each value;
  a file is subsampled (spikes, electrodes, its first D features) or its 1-D grid rebuilt (bins).`;

// a sweep's runs save no likelihoods and are not shards: those flags of `run` do not apply
const { shard: _shard, 'shard-by': _shardBy, 'save-likelihood': _save, 'trace-json': _traceJson, ...SHARED_RUN_OPTIONS } = RUN_OPTIONS;
const SWEEP_OPTIONS = { ...SHARED_RUN_OPTIONS, vary: { type: 'string' } } as const;

/** more runs than a sweep is for: a longer list is better split into sweeps */
const MAX_VALUES = 64;

export interface VarySpec {
  name: SweepVariable;
  values: number[];
}

/** `NAME=V1,V2,…` → the variable and its values, ascending; at least two distinct positive integers. */
export function parseVary(text: string | undefined): VarySpec {
  if (text === undefined) throw new UsageError(`--vary is required: NAME=V1,V2,… with NAME one of ${SWEEP_VARIABLES.join(', ')}`);
  const eq = text.indexOf('=');
  const name = eq < 0 ? text : text.slice(0, eq).trim();
  if (!isSweepVariable(name)) throw new UsageError(`--vary: '${name}' is not a size a sweep varies; choose one of ${SWEEP_VARIABLES.join(', ')}`);
  const parts = eq < 0 ? [] : text.slice(eq + 1).split(',').map((p) => p.trim()).filter((p) => p !== '');
  const values = parts.map((p) => {
    const n = Number(p);
    if (!/^\d+$/.test(p) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`--vary ${name}: expected positive integers, got '${p}'`);
    return n;
  });
  if (values.length < 2) throw new UsageError(`--vary ${name}: give at least two values, as ${name}=V1,V2,…`);
  if (values.length > MAX_VALUES) throw new UsageError(`--vary ${name}: ${values.length} values; a sweep takes at most ${MAX_VALUES}`);
  const sorted = [...values].sort((a, b) => a - b);
  const repeated = sorted.find((v, i) => i > 0 && v === sorted[i - 1]);
  if (repeated !== undefined) throw new UsageError(`--vary ${name}: ${repeated} is given twice`);
  return { name, values: sorted };
}

async function sweepConfig(flags: Parsed, vary: VarySpec, io: CliIo): Promise<RunConfig> {
  if (vary.name === 'features' && flags.values.features !== undefined) {
    throw new UsageError('--features sets the one feature count of a run; with --vary features the sweep sets it for each value');
  }
  // a sweep times the likelihood: an engine of the whole decode has no posterior of the run's to be compared with
  const whole = ([flags.values.engine ?? []].flat() as string[]).find((e) => engineModelOf(String(e)) !== undefined);
  if (whole !== undefined) {
    throw new UsageError(`--engine ${whole}: a sweep times the likelihood, and ${whole} decodes the whole model; ` +
      `sweep nld:clusterless_kde instead, or profile it with kde-profiler run --model ${engineModelOf(whole)} --engine ${whole}`);
  }
  const config = runConfigFromFlags(flags);
  if (config.data.kind === 'file') config.data = { kind: 'file', path: resolve(io.cwd, config.data.path) };
  config.data = await resolveNwbData(config.data, stringFlag(flags, 'recipe'), io.cwd);
  return config;
}

function dataText(config: RunConfig): string {
  return config.data.kind === 'preset' ? `preset:${config.data.name}` : config.data.path;
}

/** the sweep's label on each of its runs: which sweep and which value, then the user's own */
function runLabel(plan: SweepPlan, value: number): string {
  const own = plan.label === undefined ? '' : `: ${plan.label}`;
  return `sweep ${plan.id} ${plan.vary}=${value}${own}`.slice(0, 200);
}

interface SweepState {
  plan: SweepPlan;
  runs: SweepRun[];
  reports: (Report | null)[];
}

async function save(service: ProfilerService, state: SweepState, status: SweepStatus) {
  const result = sweepResultOf(state.plan, state.runs, state.reports, status);
  await saveSweep(service.runsDir, result);
  return result;
}

function valueLine(state: SweepState, i: number): string {
  const run = state.runs[i]!;
  const head = `[${i + 1}/${state.runs.length}] ${state.plan.vary}=${formatSweepValue(run.value)}: run ${run.runId} ${run.status}`;
  if (run.status !== 'completed') return `${head}${run.error ? `: ${run.error}` : ''}\n`;
  const now = sweepResultOf(state.plan, state.runs, state.reports, 'running');
  return `${head}: ${now.strategies.map((s) => `${s.strategy} ${sweepPointText(totalSeries(s).points[i])}`).join(', ')}\n`;
}

/** Runs value i; false when the sweep must stop (the user interrupted it). */
async function runValue(service: ProfilerService, state: SweepState, i: number, io: CliIo): Promise<boolean> {
  const run = state.runs[i]!;
  const { runId } = await service.startRun({ ...state.plan.config, data: { kind: 'file', path: run.dataPath }, label: runLabel(state.plan, run.value) });
  state.runs[i] = { ...run, runId, status: 'running' };
  await save(service, state, 'running');
  io.stderr.write(`[${i + 1}/${state.runs.length}] ${state.plan.vary}=${formatSweepValue(run.value)}: run ${runId}\n`);
  const { final, interrupted } = await followRun(service, runId, io);
  const done: SweepRun = { ...state.runs[i]!, status: final.status === 'queued' || final.status === 'running' ? 'failed' : final.status };
  if (final.status === 'completed') {
    const report = (await service.getRun(runId)).report;
    state.reports[i] = report;
    if (report) done.dataset = sizesOf(report.dataset);
  } else if (final.error) {
    done.error = final.error.message;
  }
  state.runs[i] = done;
  io.stderr.write(valueLine(state, i));
  return !interrupted && final.status !== 'cancelled';
}

async function copyOut(service: ProfilerService, id: string, outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  // each file whole or not at all: a kill mid-copy leaves the earlier file, never half of one
  for (const name of [SWEEP_FILES.json, SWEEP_FILES.csv]) await writeOutputFile(join(outDir, name), await readFile(join(sweepDir(service.runsDir, id), name)));
}

async function printSweepLink(io: CliIo, runsDir: string, id: string): Promise<void> {
  const server = await runningServer(runsDir);
  if (server !== null) io.stderr.write(`sweep ${id} in the browser: ${server.url.split('#')[0]}#/sweeps?sweep=${id}\n`);
}

/** The plan and the data files; nothing is left behind when the data cannot be made. */
async function prepare(service: ProfilerService, config: RunConfig, vary: VarySpec, label: string | undefined, io: CliIo): Promise<SweepState> {
  const id = newRunId();
  const plan: SweepPlan = {
    id, createdAt: new Date().toISOString(), vary: vary.name, values: vary.values, data: dataText(config), config,
    notes: [config.data.kind === 'preset' && !(config.data.name === 'place' && vary.name === 'decoding-spikes')
      ? `each value's data generated from preset '${config.data.name}' with ${vary.name} set to it`
      : `each value's data cut down from ${dataText(config)} (spikes subsampled per electrode and nested, first electrodes, first features, or the grid rebuilt)`],
  };
  if (label !== undefined) plan.label = label;
  const dir = await createSweepFolder(service.runsDir, id);
  io.stderr.write(`sweep ${id}: ${vary.name} = ${vary.values.map(formatSweepValue).join(', ')} on ${plan.data}; writing ${vary.values.length} data files\n`);
  try {
    const files = await writeSweepData({ source: config.data, vary: vary.name, values: vary.values, dir, runsDir: service.runsDir });
    const runs: SweepRun[] = files.map((f) => ({ value: f.value, runId: null, status: 'pending', dataPath: f.path }));
    return { plan, runs, reports: runs.map(() => null) };
  } catch (e) {
    await deleteSweepFolder(service.runsDir, id);
    // a refused file reads as run and decode refuse it: the one line, and the command that lists every problem
    throw e instanceof AppError ? withEveryProblemPointer(e, config.data) : e;
  }
}

function exitCode(state: SweepState, stopped: boolean): number {
  if (stopped) return EXIT.interrupted;
  const failedRun = state.runs.some((r) => r.status !== 'completed');
  const failedStrategy = state.reports.some((r) => r?.strategies.some((s) => s.status === 'failed'));
  return failedRun || failedStrategy ? EXIT.internal : EXIT.ok;
}

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, SWEEP_OPTIONS);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${SWEEP_USAGE}\n`);
    return EXIT.ok;
  }
  const vary = parseVary(stringFlag(flags, 'vary'));
  const config = await sweepConfig(flags, vary, io);
  const label = config.label;
  delete config.label;
  const outFlag = stringFlag(flags, 'out');
  // a sweep is many runs: an --out it could not write is found before the first
  if (outFlag !== undefined) await checkOutputFolder(resolve(io.cwd, outFlag), { files: [SWEEP_FILES.json, SWEEP_FILES.csv], folders: [] });
  return withService(io, stringFlag(flags, 'runs-dir'), (service) => sweepAndReport(service, config, vary, label, outFlag, io), true);
}

async function sweepAndReport(service: ProfilerService, config: RunConfig, vary: VarySpec, label: string | undefined, outFlag: string | undefined, io: CliIo): Promise<number> {
  const state = await prepare(service, config, vary, label, io);
  await save(service, state, 'running');
  let stopped = false;
  for (let i = 0; i < state.runs.length && !stopped; i++) stopped = !(await runValue(service, state, i, io));
  const failed = state.runs.some((r) => r.status === 'failed');
  const result = await save(service, state, stopped ? 'interrupted' : failed ? 'failed' : 'completed');
  io.stdout.write(sweepText(result));
  if (outFlag !== undefined) await copyOut(service, result.id, resolve(io.cwd, outFlag));
  io.stderr.write(`sweep ${result.id}: ${SWEEP_FILES.json} and ${SWEEP_FILES.csv} in ${outFlag === undefined ? sweepDir(service.runsDir, result.id) : resolve(io.cwd, outFlag)}\n`);
  await printSweepLink(io, service.runsDir, result.id);
  return exitCode(state, stopped);
}

export const sweepCommand: CliCommand = {
  summary: 'run one size of the data over several values; slopes and crossovers per strategy',
  usage: SWEEP_USAGE,
  flags: SWEEP_OPTIONS,
  run: execute,
};
