/**
 * One strategy, measured the way the seeds measure: a cold first call, warm-ups, timed warm
 * repeats with a tensor-count leak check around each, and one extra kernel-profiled call that is
 * not counted in the timings. With `--repeats auto` the repeats go on past the asked count until
 * the median's interval is narrow enough or a budget runs out (analysis/stopping.ts). The
 * machine's load is read around each strategy. A strategy that throws becomes a failed result;
 * the run goes on.
 */
import { isDispatch, type StrategyChoice } from '../../shared/config';
import { summarizeDataset } from '../../shared/dataset';
import { serializeError } from '../../shared/errors';
import type { LeakCheck, NumericalHealth, StageTime, StrategyResult, TimingStats } from '../../shared/report';
import { REPEAT_SPAN, STRATEGY_SPAN, WARMUP_SPAN } from '../../shared/traceSpans';
import { compareArrays, judgeRepeats, machineLoadBetween, numericalHealth, timingStats, type StopReason } from '../analysis';
import { estimateDatasetPeak, isCancellation } from '../engine/model';
import type { NonlocalResult } from '../engine';
import type { FittedModel } from './engineDeps';
import type { StrategyWindow } from '../engineProtocol';
import { fitOptionsFor } from './fitOptions';
import { readLoad } from './loadReading';
import { clockOf, nextStep, type MeasureContext } from './measureContext';

export interface CallTiming {
  encodeMs: number;
  decodeMs: number;
  totalMs: number;
}

interface CallOutput {
  timing: CallTiming;
  result: NonlocalResult;
  fit: Pick<FittedModel, 'occupancy' | 'meanRates' | 'summedGroundProcessIntensity'>;
}

export interface StrategyMeasurement {
  result: StrategyResult;
  /** the last warm repeat's likelihood, kept for the agreement matrix */
  likelihood?: Float64Array;
  /** an external engine's acausal posterior (time rows × state bins), compared with the run's own once that is decoded */
  posterior?: Float64Array;
  window: StrategyWindow;
}

/** the span around the profiled call, so its cost can be read off the trace */
const PROFILE_SPAN = 'kernel-profile';

type Wrap = <T>(phase: 'encode' | 'decode', fn: () => Promise<T>) => Promise<T>;
const unwrapped: Wrap = (_phase, fn) => fn();

/**
 * fit + predict, each in its own span and timed; the model's tensors are freed before returning.
 * `wrap` lets the kernel-profiled call profile encode and decode separately.
 */
async function fitAndPredict(ctx: MeasureContext, strategy: StrategyChoice, wrap: Wrap = unwrapped): Promise<CallOutput> {
  const { deps, dataset, rec } = ctx;
  const now = clockOf(ctx);
  const t0 = now();
  const model = await rec.span('encode', () => wrap('encode', () => deps.fitEncodingModel(dataset, rec, fitOptionsFor(strategy, ctx.options.memoryBudgetBytes))));
  const t1 = now();
  try {
    const result = await rec.span('decode', () =>
      wrap('decode', () => deps.predictNonlocal(model, dataset, strategy, { ...ctx.options, signal: ctx.signal }, rec)),
    );
    const t2 = now();
    const fit = {
      occupancy: model.occupancy,
      meanRates: model.meanRates,
      summedGroundProcessIntensity: model.summedGroundProcessIntensity,
    };
    return { timing: { encodeMs: t1 - t0, decodeMs: t2 - t1, totalMs: t2 - t0 }, result, fit };
  } finally {
    model.dispose();
  }
}

/**
 * One step of the loop (cold, a warmup, a repeat, the profiled call): its span keeps one name on
 * every call and says which call it was in its args; `shown` is what progress says.
 */
interface LoopStep {
  span: string;
  args?: Record<string, unknown>;
  shown: string;
}

const numberedStep = (span: string, i: number, shown = `${span} ${i}`): LoopStep => ({ span, args: { [span]: i }, shown });

/** One call under its step's span. */
async function unit<T>(ctx: MeasureContext, group: string, step: LoopStep, fn: () => Promise<T>): Promise<T> {
  await nextStep(ctx.signal);
  ctx.tracker.beginUnit(group, step.shown);
  ctx.emitProgress();
  ctx.memory.sampleNow();
  const out = await ctx.rec.span(step.span, fn, step.args);
  ctx.memory.sampleNow();
  ctx.tracker.endUnit();
  ctx.emitProgress();
  return out;
}

function maxAbsDiff(a: ArrayLike<number> | undefined, b: ArrayLike<number> | undefined): number | undefined {
  if (!a || !b || a.length !== b.length) return undefined;
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (Number.isNaN(d)) return Infinity;
    if (d > m) m = d;
  }
  return m;
}

interface WarmRepeats {
  timings: CallTiming[];
  last: CallOutput;
  /** the engine's stages over the repeats, the loop's own spans left out */
  stages: StageTime[];
  leak: LeakCheck;
  peakHeapBytes: number;
  stoppedBy: StopReason;
}

/** What progress shows for a repeat: with `--repeats auto`, how far the interval is from its target. */
function repeatLabel(ctx: MeasureContext, i: number, precision: number | undefined, elapsedMs: number): string {
  const rule = ctx.config.untilStable;
  if (!rule) return `repeat ${i}/${ctx.config.repeats}`;
  const now = precision === undefined ? '' : `±${(precision * 100).toFixed(1)} %, `;
  return `repeat ${i} (${now}target ±${(rule.relativeCi * 100).toFixed(0)} %, ${(elapsedMs / 1000).toFixed(0)} of ${rule.maxTimeS} s)`;
}

/**
 * The timed repeats, with a tensor count around each for the leak check: the asked count, or with
 * `--repeats auto` until the stopping rule says enough.
 */
async function warmRepeats(ctx: MeasureContext, strategy: StrategyChoice, group: string, cold: CallOutput): Promise<WarmRepeats> {
  const { deps, rec } = ctx;
  const now = clockOf(ctx);
  const timings: CallTiming[] = [];
  const perRepeat: number[] = [];
  let last = cold;
  const tensorsBefore = deps.engineMemory().numTensors;
  let peakHeapBytes = process.memoryUsage().heapUsed;
  // earlier calls' spans still buffered in the recorder must not count as the repeats' stages
  rec.flush();
  ctx.spans.begin();
  ctx.tracker.beginRepeats(group);
  const startMs = now();
  let stoppedBy: StopReason | undefined;
  let precision: number | undefined;
  for (let i = 1; stoppedBy === undefined; i++) {
    const before = deps.engineMemory().numTensors;
    const shown = repeatLabel(ctx, i, precision, now() - startMs);
    // only the last call's likelihood is kept: the one before hands its memory to this call
    last.result.release?.();
    last = await unit(ctx, group, numberedStep(REPEAT_SPAN, i, shown), () => fitAndPredict(ctx, strategy));
    perRepeat.push(deps.engineMemory().numTensors - before);
    timings.push(last.timing);
    peakHeapBytes = Math.max(peakHeapBytes, process.memoryUsage().heapUsed);
    const judged = judgeRepeats(ctx.config.repeats, ctx.config.untilStable, { samplesMs: timings.map((t) => t.totalMs), elapsedMs: now() - startMs });
    stoppedBy = judged.stop;
    precision = judged.halfWidth;
  }
  ctx.tracker.endRepeats(group);
  rec.flush();
  const stages = deps.stageTimes(ctx.spans.end());
  const tensorsAfter = deps.engineMemory().numTensors;
  const leak: LeakCheck = { tensorsBefore, tensorsAfter, perRepeat, leaked: perRepeat.some((n) => n > 0) || tensorsAfter > tensorsBefore };
  return { timings, last, stages, leak, peakHeapBytes, stoppedBy };
}

/**
 * One call profiled: the kernels of encode and decode together; the peak of decode alone, which
 * is what the strategy's memory formula describes (the fit's transient tiles are the same for every
 * strategy). It takes the place of the last warmup call (warmups are not timed), so it costs the
 * run only tf.profile's own overhead; with no warmup it is one call more.
 */
async function kernelProfile(ctx: MeasureContext, strategy: StrategyChoice, group: string): Promise<{ kernels: unknown[]; peakBytes: number }> {
  const profiled = { kernels: [] as unknown[], peakBytes: 0 };
  const call = () => ctx.rec.span(PROFILE_SPAN, () =>
    fitAndPredict(ctx, strategy, async (phase, fn) => {
      const p = await ctx.deps.profileKernels(fn);
      profiled.kernels.push(...p.kernels);
      if (phase === 'decode') profiled.peakBytes = p.peakBytes;
      return p.result;
    }));
  const { warmup } = ctx.config;
  const step = warmup > 0 ? numberedStep(WARMUP_SPAN, warmup) : { span: 'profiled call', shown: 'profiled call' };
  const out = await unit(ctx, group, step, call);
  out.result.release?.();
  return profiled;
}

function healthOf(ctx: MeasureContext, last: CallOutput): NumericalHealth {
  const { dataset } = ctx;
  return numericalHealth({
    occupancy: last.fit.occupancy,
    groundProcess: last.fit.summedGroundProcessIntensity,
    likelihood: last.result.logLikelihood,
    positionDims: dataset.positionDims,
    electrodes: dataset.electrodes.map((e, i) => ({
      name: e.name,
      nEnc: e.encodingSpikeTimes.length,
      nDec: e.decodingSpikeTimes.length,
      floorShare: last.result.floorShare[i] ?? Number.NaN,
      // the engine reports non-finite values only in aggregate (occupancy, ground process, likelihood)
      nonFinite: 0,
      nFeatures: e.nFeatures,
      nTerms: last.result.nTerms[i],
    })),
  });
}

/** The last repeat's fit and likelihood against the values the data file expects, where it has them. */
function addExpectedAgreement(result: StrategyResult, ctx: MeasureContext, last: CallOutput): void {
  const expected = ctx.dataset.expected;
  if (!expected) return;
  const { nTime, nBins, logLikelihood: ll } = last.result;
  if (expected.logLikelihoodNonlocal && expected.logLikelihoodNonlocal.length === ll.length) {
    result.agreementWithExpected = compareArrays(ll, expected.logLikelihoodNonlocal, nTime, nBins, 'expected');
  }
  result.fitAgreement = {
    occupancy: maxAbsDiff(last.fit.occupancy, expected.occupancy),
    meanRates: maxAbsDiff(last.fit.meanRates, expected.meanRates),
    summedGroundProcessIntensity: maxAbsDiff(last.fit.summedGroundProcessIntensity, expected.summedGroundProcessIntensity),
  };
}

async function measure(ctx: MeasureContext, strategy: StrategyChoice, group: string): Promise<{ result: StrategyResult; last: CallOutput }> {
  const cold = await unit(ctx, group, { span: 'cold', shown: 'cold' }, () => fitAndPredict(ctx, strategy));
  const profiling = ctx.config.kernelProfile !== false;
  const plainWarmups = profiling ? Math.max(0, ctx.config.warmup - 1) : ctx.config.warmup;
  for (let i = 1; i <= plainWarmups; i++) {
    (await unit(ctx, group, numberedStep(WARMUP_SPAN, i), () => fitAndPredict(ctx, strategy))).result.release?.();
  }
  const profiled = profiling ? await kernelProfile(ctx, strategy, group) : { kernels: [], peakBytes: Number.NaN };
  const warm = await warmRepeats(ctx, strategy, group, cold);
  const { last } = warm;
  // the stopping rule judges the total per call, so the reason belongs to the total
  const total: TimingStats = { ...timingStats(cold.timing.totalMs, warm.timings.map((t) => t.totalMs)), stoppedBy: warm.stoppedBy };
  const result: StrategyResult = {
    strategy,
    resolved: last.result.resolved,
    ...(isDispatch(strategy) && last.result.resolvedReasons ? { resolvedReasons: last.result.resolvedReasons } : {}),
    status: 'ok',
    encode: timingStats(cold.timing.encodeMs, warm.timings.map((t) => t.encodeMs)),
    decode: timingStats(cold.timing.decodeMs, warm.timings.map((t) => t.decodeMs)),
    total,
    stages: warm.stages,
    kernels: ctx.deps.aggregateKernels(profiled.kernels),
    memory: {
      estimatedPeakBytes: estimateDatasetPeak(strategy, summarizeDataset(ctx.dataset), ctx.options).deviceBytes,
      measuredPeakTensorBytes: Number.isFinite(profiled.peakBytes) ? Math.max(0, profiled.peakBytes) : 0,
      peakHeapBytes: warm.peakHeapBytes,
    },
    leak: warm.leak,
    health: healthOf(ctx, last),
  };
  addExpectedAgreement(result, ctx, last);
  return { result, last };
}

/**
 * With `--repeats auto` every strategy's group gets its open-ended unit before the first one
 * starts (later calls change nothing), so the progress bar never steps back.
 */
function planUntilStable(ctx: MeasureContext): void {
  const rule = ctx.config.untilStable;
  if (!rule) return;
  ctx.tracker.untilStable(ctx.config.strategies, { minRepeats: ctx.config.repeats, maxRepeats: rule.maxRepeats, maxMs: rule.maxTimeS * 1000 });
}

/** Runs one strategy under its span; a failure other than cancellation is recorded, not thrown. */
export async function measureStrategy(ctx: MeasureContext, strategy: StrategyChoice): Promise<StrategyMeasurement> {
  const group = strategy;
  planUntilStable(ctx);
  const startUs = ctx.rec.nowUs();
  const loadAtStart = readLoad();
  ctx.memory.markStage(strategy);
  try {
    const { last, result } = await ctx.rec.span(STRATEGY_SPAN, () => measure(ctx, strategy, group), { strategy });
    result.load = machineLoadBetween(loadAtStart, readLoad());
    ctx.memory.markStage(undefined);
    const peaks = ctx.memory.summary().stages[strategy];
    if (result.memory && peaks) {
      result.memory.peakHeapBytes = Math.max(result.memory.peakHeapBytes ?? 0, peaks.heapBytes);
      if (peaks.gpuUsedBytes > 0) result.memory.gpuBytes = peaks.gpuUsedBytes;
    }
    return { result, likelihood: last.result.logLikelihood, window: { strategy, startUs, endUs: ctx.rec.nowUs() } };
  } catch (e) {
    ctx.memory.markStage(undefined);
    if (ctx.signal.aborted || isCancellation(e)) throw e;
    ctx.tracker.skipRest(group);
    ctx.emitProgress();
    return {
      result: { strategy, resolved: [], status: 'failed', error: serializeError(e), stages: [], kernels: [] },
      window: { strategy, startUs, endUs: ctx.rec.nowUs() },
    };
  }
}
