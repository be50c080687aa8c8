/**
 * A run's external engines, each in turn after the engine's own strategies: the run's data
 * written once as a clusterless-npz/1 file they all read, each engine started in a folder of its
 * own in the run folder, its messages recorded on its lane as they come, its likelihood read back
 * for the agreement matrix. An engine that fails leaves a failed row saying why; the run goes on.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { AppError } from '../../../shared/errors';
import { DEFAULT_ENGINE_TIMEOUT_S, type ExternalEngineName } from '../../../shared/externalEngines';
import type { TraceRecord } from '../../../shared/events';
import { compareArrays } from '../../analysis';
import { writeClusterlessNpz } from '../../data';
import { throwIfCancelled } from '../../engine/model';
import { EXTERNAL_DATA_FILE, EXTERNAL_DIR, externalEngineDir } from '../../engineProtocol';
import type { MeasureContext, StrategyMeasurement } from '../measurement';
import { runChild, type ChildEnd } from './childRun';
import { invocationOf, type EngineInvocation } from './engineCommand';
import { ExternalLane } from './externalLane';
import { ExternalRecord } from './externalRecord';
import { readEngineOutputs, type EngineOutputs } from './engineResults';
import { endFailure } from './externalFailures';
import { importFrameworkTrace } from './frameworkTrace';
import { watchGpuMemory } from './gpuWatch';
import type { TraceMessage } from './messages';

const RECORD_BATCH = 64;

export interface ExternalSink {
  /** hands records to the run's trace (the session's batches) */
  records(records: TraceRecord[]): void;
  log(level: 'info' | 'warn' | 'error', message: string): void;
}

/** units of progress an engine's group has: its cold call, warm-ups and repeats */
export function externalUnits(config: MeasureContext['config']): number {
  return 1 + config.warmup + config.repeats;
}

/** Every external engine the run names, in order, on one data file; that file is removed after. */
export async function measureExternalEngines(ctx: MeasureContext, runDir: string, sink: ExternalSink): Promise<StrategyMeasurement[]> {
  const engines = ctx.config.engines ?? [];
  if (engines.length === 0) return [];
  await mkdir(join(runDir, EXTERNAL_DIR), { recursive: true });
  const dataPath = join(runDir, EXTERNAL_DATA_FILE);
  await ctx.rec.span('external data', () => writeClusterlessNpz(ctx.dataset, dataPath, { overwrite: true }));
  const measured: StrategyMeasurement[] = [];
  try {
    for (const [i, name] of engines.entries()) {
      measured.push(await measureExternal(ctx, { name, index: i, dataPath, runDir, outDir: join(runDir, externalEngineDir(i, name)) }, sink));
    }
  } finally {
    await rm(dataPath, { force: true });
  }
  return measured;
}

interface EngineSlot {
  name: ExternalEngineName;
  index: number;
  dataPath: string;
  runDir: string;
  outDir: string;
}

async function measureExternal(ctx: MeasureContext, slot: EngineSlot, sink: ExternalSink): Promise<StrategyMeasurement> {
  const { name, outDir } = slot;
  const startUs = ctx.rec.nowUs();
  await mkdir(outDir, { recursive: true });
  let invocation: EngineInvocation;
  try {
    invocation = invocationOf({ name, config: ctx.config, dataPath: slot.dataPath, outDir });
  } catch (e) {
    const failure = new AppError('RUN_FAILED', (e as Error).message);
    const end: ChildEnd = { exitCode: null, signal: null, stoppedFor: 'spawn', stdoutTail: [], stderrTail: [] };
    ctx.tracker.skipRest(name);
    return { result: new ExternalRecord().toResult(name, [], end, failure), windows: [{ strategy: name, startUs, endUs: ctx.rec.nowUs() }] };
  }
  const record = new ExternalRecord();
  const lane = new ExternalLane({ name, tid: slot.index + 1, nowUs: () => ctx.rec.nowUs() });
  const end = await ctx.rec.span('external engine', () => watchChild(ctx, { slot, lane, invocation, record, sink }), { engine: name });
  throwIfCancelled(ctx.signal);
  if (record.trace && ctx.config.trace) await addFrameworkTrace({ slot, lane, trace: record.trace, sink });
  const timeoutS = ctx.config.engineTimeoutS ?? DEFAULT_ENGINE_TIMEOUT_S;
  let failure = endFailure({ record, end, timeoutS, outDir, program: invocation.argv[0]! });
  let outputs: EngineOutputs = {};
  if (!failure) {
    const read = await readEngineOutputs({ name, dataset: ctx.dataset, model: ctx.config.posterior?.model, record, outDir });
    if (read instanceof AppError) failure = read;
    else outputs = read;
  }
  ctx.tracker.skipRest(name);
  if (failure) sink.log('warn', `${name}: ${failure.message}`);
  const result = record.toResult(name, invocation.argv, end, failure);
  const { likelihood, posterior } = outputs;
  const expected = ctx.dataset.expected?.logLikelihoodNonlocal;
  if (likelihood && expected?.length === likelihood.length) {
    result.agreementWithExpected = compareArrays(likelihood, expected, ctx.dataset.time.length, likelihood.length / ctx.dataset.time.length, 'expected');
  }
  if (posterior && result.external) result.external.posterior = { model: posterior.model, file: relative(slot.runDir, join(outDir, posterior.file)) };
  return {
    result, ...(likelihood ? { likelihood } : {}), ...(posterior ? { posterior: posterior.values } : {}),
    windows: [{ strategy: name, startUs, endUs: ctx.rec.nowUs() }],
  };
}

/** The framework's trace the engine captured, on lanes under the engine's; a trace that cannot be read is a warning. */
async function addFrameworkTrace({ slot, lane, trace, sink }: { slot: EngineSlot; lane: ExternalLane; trace: TraceMessage; sink: ExternalSink }): Promise<void> {
  try {
    const startUs = lane.hereUs(trace.startNs);
    const imported = await importFrameworkTrace(join(slot.outDir, trace.file), slot.outDir, { engine: slot.name, laneBase: 100 * (slot.index + 1), startUs });
    for (let i = 0; i < imported.records.length; i += 1000) sink.records(imported.records.slice(i, i + 1000));
    const dropped = [
      imported.dropped > 0 ? `${imported.dropped} past the limit` : '', imported.overlapping > 0 ? `${imported.overlapping} that overlap without nesting` : '',
    ].filter(Boolean).join(' and ');
    const left = dropped ? `; left out: ${dropped}` : '';
    sink.log('info', `${slot.name}: its framework's trace added ${imported.spans} spans to the timeline${left}`);
  } catch (e) {
    sink.log('warn', `${slot.name}: its framework's trace ${trace.file} could not be added: ${(e as Error).message}`);
  }
}

/** Runs the child, turning its messages into trace records and progress as they come. */
interface Watched {
  slot: EngineSlot;
  lane: ExternalLane;
  invocation: EngineInvocation;
  record: ExternalRecord;
  sink: ExternalSink;
}

async function watchChild(ctx: MeasureContext, { slot, lane, invocation, record, sink }: Watched): Promise<ChildEnd> {
  let batch: TraceRecord[] = [];
  const push = (...r: TraceRecord[]) => {
    if (!ctx.config.trace) return;
    batch.push(...r);
    if (batch.length >= RECORD_BATCH) flush();
  };
  const flush = () => {
    if (batch.length > 0) sink.records(batch);
    batch = [];
  };
  ctx.tracker.beginUnit(slot.name, 'cold');
  ctx.emitProgress();
  const gpu = watchGpuMemory((bytes) => push(lane.gpu(bytes)));
  const end = await runChild({
    // the working directory the profiler was started in, where the paths of a cmd: engine's command resolve
    argv: invocation.argv, env: invocation.env, cwd: process.cwd(), signal: ctx.signal,
    timeoutMs: (ctx.config.engineTimeoutS ?? DEFAULT_ENGINE_TIMEOUT_S) * 1000,
    onMessage: (m) => {
      const span = m.type === 'span' ? lane.span(m) : undefined;
      record.take(m, span);
      if (m.type === 'hello') push(...lane.hello(m));
      else if (span) push(span);
      else if (m.type === 'counter') push(lane.counter(m));
      else if (m.type === 'log') sink.log(m.level, `${slot.name}: ${m.message}`);
      else if (m.type === 'call') {
        ctx.tracker.endUnit();
        ctx.tracker.beginUnit(slot.name, nextCallLabel(record.calls.length, ctx.config));
        ctx.emitProgress();
      }
    },
    onRss: (bytes) => {
      record.rss(bytes);
      push(lane.rss(bytes));
    },
  });
  const gpuPeak = gpu.stop();
  if (gpuPeak !== undefined) record.gpuPeakBytes = gpuPeak;
  flush();
  return end;
}

/** What the engine's next call is, after `done` calls: the warm-ups after the cold call, then the repeats. */
function nextCallLabel(done: number, { warmup, repeats }: MeasureContext['config']): string {
  if (done > warmup + repeats) return 'its result';
  return done <= warmup ? `warm-up ${done}` : `repeat ${done - warmup}`;
}
