/**
 * The strategies, measured the way the seeds measure: each one's cold first call, its warm-ups and
 * one extra kernel-profiled call that is not counted in the timings, in turn; then the timed warm
 * repeats of all of them interleaved (interleavedRepeats.ts), with a tensor-count leak check around
 * each. With `--repeats auto` a strategy's repeats go on past the asked count until its median's
 * interval is narrow enough or a budget runs out (analysis/stopping.ts). The machine's load is read
 * around each strategy. A strategy that throws becomes a failed result; the run goes on.
 */
import { isDispatch, type StrategyChoice } from '../../../shared/config';
import { summarizeDataset, type DatasetSummary } from '../../../shared/dataset';
import { serializeError } from '../../../shared/errors';
import type { NumericalHealth, StrategyResult, TimingStats } from '../../../shared/report';
import { STRATEGY_SPAN, WARMUP_SPAN } from '../../../shared/traceSpans';
import { compareArrays, machineLoadBetween, numericalHealth, timingStats } from '../../analysis';
import { estimateDatasetPeak, isCancellation } from '../../engine/model';
import type { StrategyWindow } from '../../engineProtocol';
import { refuseBeyondHeap } from './heapLimit';
import { emptyTally, interleavedRepeats, isMeasuring, stageTable, type StrategyInProgress } from './interleavedRepeats';
import { readLoad } from './loadReading';
import type { MeasureContext } from './measureContext';
import { fitAndPredict, kernelProfile, numberedStep, unit, type CallOutput, type ProfiledCall } from './strategyCalls';

export interface StrategyMeasurement {
  result: StrategyResult;
  /** the last warm repeat's likelihood, kept for the agreement matrix */
  likelihood?: Float64Array;
  /** an external engine's acausal posterior (time rows × state bins), compared with the run's own once that is decoded */
  posterior?: Float64Array;
  /** where its calls lie on the run clock (its repeats interleave with other strategies' ones) */
  windows: StrategyWindow[];
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

/** The cold call, the warm-ups and the kernel-profiled call, under the strategy's span. */
async function coldAndWarmups(ctx: MeasureContext, strategy: StrategyChoice): Promise<{ cold: CallOutput; profiled: ProfiledCall; last: CallOutput }> {
  const cold = await unit(ctx, strategy, { span: 'cold', shown: 'cold' }, () => fitAndPredict(ctx, strategy));
  const profiling = ctx.config.kernelProfile !== false;
  const plainWarmups = profiling ? Math.max(0, ctx.config.warmup - 1) : ctx.config.warmup;
  for (let i = 1; i <= plainWarmups; i++) {
    (await unit(ctx, strategy, numberedStep(WARMUP_SPAN, i), () => fitAndPredict(ctx, strategy))).result.release?.();
  }
  const profiled = profiling ? await kernelProfile(ctx, strategy, strategy) : { kernels: [], peakBytes: Number.NaN };
  return { cold, profiled, last: cold };
}

/** A strategy up to its repeats; a failure other than a cancel is kept on it, not thrown. */
async function prepare(ctx: MeasureContext, strategy: StrategyChoice): Promise<StrategyInProgress> {
  const s: StrategyInProgress = { strategy, loadAtStart: readLoad(), windows: [], repeats: emptyTally() };
  const startUs = ctx.rec.nowUs();
  ctx.memory.markStage(strategy);
  try {
    if (ctx.backendName) refuseBeyondHeap(strategy, ctx.backendName, estimateDatasetPeak(strategy, summarizeDataset(ctx.dataset), ctx.options));
    s.calls = await ctx.rec.span(STRATEGY_SPAN, () => coldAndWarmups(ctx, strategy), { strategy });
  } catch (e) {
    if (ctx.signal.aborted || isCancellation(e)) throw e;
    s.error = (await ctx.deps.explainFailure?.(e)) ?? e;
    s.loadAtEnd = readLoad();
    ctx.tracker.skipRest(strategy);
    ctx.emitProgress();
  } finally {
    ctx.memory.markStage(undefined);
    s.windows.push({ strategy, startUs, endUs: ctx.rec.nowUs() });
  }
  return s;
}

/**
 * The strategy's row from what it measured so far: failed, or its timings, stages and memory; once
 * its repeats have stopped (`complete`), also the checks that read its whole last likelihood (health,
 * agreement with the data's expected values), which a row handed over mid-rounds leaves out.
 */
function rowOf(ctx: MeasureContext, s: StrategyInProgress, summary: DatasetSummary, complete: boolean): StrategyMeasurement {
  const { strategy, calls, repeats } = s;
  const windows = [...s.windows];
  if (s.error !== undefined || !calls) {
    return { result: { strategy, resolved: [], status: 'failed', error: serializeError(s.error), stages: [], kernels: [] }, windows };
  }
  const { cold, profiled, last } = calls;
  const { timings } = repeats;
  // the stopping rule judges the total per call, so the reason belongs to the total
  const total: TimingStats = timingStats(cold.timing.totalMs, timings.map((t) => t.totalMs));
  if (repeats.stoppedBy) total.stoppedBy = repeats.stoppedBy;
  const tensorsBefore = repeats.tensorsBefore ?? ctx.deps.engineMemory().numTensors;
  // other strategies' repeats ran in between, so the strategy's own count is what its repeats added
  const tensorsAfter = tensorsBefore + repeats.perRepeat.reduce((a, b) => a + b, 0);
  const peaks = ctx.memory.summary().stages[strategy];
  const result: StrategyResult = {
    strategy,
    resolved: last.result.resolved,
    ...(isDispatch(strategy) && last.result.resolvedReasons ? { resolvedReasons: last.result.resolvedReasons } : {}),
    ...(strategy === 'auto' && ctx.autoProbe ? { autoProbe: ctx.autoProbe.record } : {}),
    status: 'ok',
    encode: timingStats(cold.timing.encodeMs, timings.map((t) => t.encodeMs)),
    decode: timingStats(cold.timing.decodeMs, timings.map((t) => t.decodeMs)),
    total,
    stages: stageTable(repeats),
    kernels: ctx.deps.aggregateKernels(profiled.kernels),
    memory: {
      estimatedPeakBytes: estimateDatasetPeak(strategy, summary, ctx.options).deviceBytes,
      measuredPeakTensorBytes: Number.isFinite(profiled.peakBytes) ? Math.max(0, profiled.peakBytes) : 0,
      peakHeapBytes: Math.max(repeats.peakHeapBytes, peaks?.heapBytes ?? 0),
      ...(peaks && peaks.gpuUsedBytes > 0 ? { gpuBytes: peaks.gpuUsedBytes } : {}),
    },
    leak: { tensorsBefore, tensorsAfter, perRepeat: [...repeats.perRepeat], leaked: repeats.perRepeat.some((n) => n > 0) },
    load: machineLoadBetween(s.loadAtStart, s.loadAtEnd ?? readLoad()),
  };
  if (complete) {
    result.health = healthOf(ctx, last);
    addExpectedAgreement(result, ctx, last);
  }
  return { result, likelihood: last.result.logLikelihood, windows };
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

/**
 * Measures the strategies: each one's cold call and warm-ups in turn, then their repeats in rounds.
 * After each strategy's first calls and after each round `onRound` gets every row measured so far,
 * so a run that fails or is cancelled keeps them: one stopped before its repeats still reports the
 * first calls it made (rows of one call, as a decode's), not nothing. A strategy's row is complete
 * from the round its repeats stop, and made once then: the checks over its whole likelihood are not
 * redone each of a long `--repeats auto` run's rounds.
 */
export async function measureStrategies(
  ctx: MeasureContext, strategies: readonly StrategyChoice[], onRound: (soFar: StrategyMeasurement[]) => void = () => undefined,
): Promise<StrategyMeasurement[]> {
  planUntilStable(ctx);
  const summary = summarizeDataset(ctx.dataset);
  const prepared: StrategyInProgress[] = [];
  const complete = new Map<StrategyInProgress, StrategyMeasurement>();
  const row = (s: StrategyInProgress): StrategyMeasurement => {
    if (isMeasuring(s)) return rowOf(ctx, s, summary, false);
    let done = complete.get(s);
    if (!done) complete.set(s, (done = rowOf(ctx, s, summary, true)));
    return done;
  };
  const soFar = (): StrategyMeasurement[] => prepared.filter((s) => s.error !== undefined || s.calls !== undefined).map(row);
  for (const strategy of strategies) {
    prepared.push(await prepare(ctx, strategy));
    onRound(soFar());
  }
  await interleavedRepeats(ctx, prepared, () => onRound(soFar()));
  return prepared.map(row);
}
