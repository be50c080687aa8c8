/**
 * The timed repeats of every strategy, interleaved: round after round, each strategy still
 * measuring takes one repeat (A, B, A, B…). A drift of the machine (another program starting, the
 * CPU warming and throttling, the page cache filling) then falls on every strategy alike, instead
 * of on whichever strategy happened to be measured last, and cannot order them. A strategy leaves
 * the rounds when its asked count is done or, with `--repeats auto`, when the stopping rule says
 * enough; its time budget counts only its own repeats.
 */
import type { StrategyChoice } from '../../../shared/config';
import type { StageClock, StageTime } from '../../../shared/report';
import { REPEAT_SPAN, STRATEGY_SPAN } from '../../../shared/traceSpans';
import { judgeRepeats, type LoadReading, type StopReason } from '../../analysis';
import { isCancellation } from '../../engine/model';
import type { StrategyWindow } from '../../engineProtocol';
import type { EngineProbe } from '../../engine';
import { DeviceStageTimes, RunningStageTimes } from '../../recorder';
import { readLoad } from './loadReading';
import { clockOf, type MeasureContext } from './measureContext';
import { fitAndPredict, numberedStep, unit, type CallOutput, type CallTiming, type ProfiledCall } from './strategyCalls';

/** A strategy's timed repeats so far, with the tensor count around each for the leak check. */
export interface RepeatTally {
  timings: CallTiming[];
  /** tensors each repeat left behind (after − before, around that repeat alone) */
  perRepeat: number[];
  /** the engine's stages over the repeats, the loop's own spans left out, on the host's clock */
  stages: RunningStageTimes;
  /** the same spans' GPU time, where the device timed them */
  deviceStages: DeviceStageTimes;
  /** where the repeats' stage times come from (the stage timer's clock) */
  clock: StageClock;
  /** tensors alive before the strategy's first repeat */
  tensorsBefore?: number;
  peakHeapBytes: number;
  /** time spent in this strategy's own repeats: what `--repeats auto`'s budget counts */
  repeatMs: number;
  stoppedBy?: StopReason;
  /** the median's interval half-width as a share of it, once there is one */
  precision?: number;
}

/** A strategy from its cold call to its finished row. */
export interface StrategyInProgress {
  strategy: StrategyChoice;
  loadAtStart: LoadReading;
  /** read once its repeats stopped */
  loadAtEnd?: LoadReading;
  /** where its calls lie on the run clock: the cold call and warm-ups, then each repeat */
  windows: StrategyWindow[];
  /** the cold call, the profiled call, and the last call made (whose likelihood is the one kept) */
  calls?: { cold: CallOutput; profiled: ProfiledCall; last: CallOutput };
  repeats: RepeatTally;
  /** what stopped it, when something other than a cancel did: the strategy fails, the run goes on */
  error?: unknown;
}

export function emptyTally(): RepeatTally {
  return {
    timings: [], perRepeat: [], stages: new RunningStageTimes(), deviceStages: new DeviceStageTimes(), clock: 'host',
    peakHeapBytes: process.memoryUsage().heapUsed, repeatMs: 0,
  };
}

/** The repeats' stage table, its times on the clock that measured them. */
export function stageTable(tally: RepeatTally): StageTime[] {
  return tally.deviceStages.onClock(tally.stages.table(), tally.clock);
}

/** Still taking repeats: prepared, not failed, not stopped. */
export const isMeasuring = (s: StrategyInProgress): boolean =>
  s.calls !== undefined && s.error === undefined && s.repeats.stoppedBy === undefined;

/** What progress shows for a repeat: with `--repeats auto`, how far the interval is from its target. */
function repeatLabel(ctx: MeasureContext, i: number, tally: RepeatTally): string {
  const rule = ctx.config.untilStable;
  if (!rule) return `repeat ${i}/${ctx.config.repeats}`;
  const now = tally.precision === undefined ? '' : `±${(tally.precision * 100).toFixed(1)} %, `;
  return `repeat ${i} (${now}target ±${(rule.relativeCi * 100).toFixed(0)} %, ${(tally.repeatMs / 1000).toFixed(0)} of ${rule.maxTimeS} s)`;
}

/**
 * The engine's spans that close during `fn`, added to the strategy's stages; where the device
 * times its work (webgpu), `fn`'s probe also gives each span its GPU time, and the device's passes
 * go on the GPU's lane of the trace once the repeat's spans are collected (they are not stages).
 */
async function collectingStages<T>(ctx: MeasureContext, tally: RepeatTally, fn: (probe: EngineProbe) => Promise<T>): Promise<T> {
  // spans of earlier calls still buffered in the recorder must not count as this repeat's stages
  ctx.rec.flush();
  ctx.spans.begin();
  const timer = ctx.deps.openStageTimer?.();
  tally.clock = timer?.clock ?? 'host';
  try {
    return await fn(timer ? timer.probe(ctx.rec) : ctx.rec);
  } finally {
    ctx.rec.flush();
    for (const span of ctx.spans.end()) tally.stages.add(span);
    if (timer) {
      const { spans, passes, lane } = await timer.close();
      for (const span of spans) tally.deviceStages.add(span);
      ctx.rec.deviceSpans(passes, lane);
    }
  }
}

/**
 * One timed repeat of the strategy, under its own strategy span (the trace shows the rounds as they
 * ran), its spans tallied as the strategy's stages, its memory attributed to the strategy.
 */
async function repeatOnce(ctx: MeasureContext, s: StrategyInProgress, calls: NonNullable<StrategyInProgress['calls']>): Promise<void> {
  const { deps, rec } = ctx;
  const tally = s.repeats;
  const now = clockOf(ctx);
  const i = tally.timings.length + 1;
  if (i === 1) {
    tally.tensorsBefore = deps.engineMemory().numTensors;
    ctx.tracker.beginRepeats(s.strategy);
  }
  const shown = repeatLabel(ctx, i, tally);
  const before = deps.engineMemory().numTensors;
  const startUs = rec.nowUs();
  const t0 = now();
  const step = numberedStep(REPEAT_SPAN, i, shown);
  ctx.memory.markStage(s.strategy);
  try {
    calls.last = await rec.span(STRATEGY_SPAN, () => collectingStages(ctx, tally, (probe) => {
      // only the last call's likelihood is kept: the one before hands its memory to this call
      calls.last.result.release?.();
      return unit(ctx, s.strategy, step, () => fitAndPredict(ctx, s.strategy, undefined, probe));
    }), { strategy: s.strategy });
  } finally {
    ctx.memory.markStage(undefined);
    s.windows.push({ strategy: s.strategy, startUs, endUs: rec.nowUs() });
  }
  tally.repeatMs += now() - t0;
  tally.perRepeat.push(deps.engineMemory().numTensors - before);
  tally.timings.push(calls.last.timing);
  tally.peakHeapBytes = Math.max(tally.peakHeapBytes, process.memoryUsage().heapUsed);
  const judged = judgeRepeats(ctx.config.repeats, ctx.config.untilStable, { samplesMs: tally.timings.map((t) => t.totalMs), elapsedMs: tally.repeatMs });
  tally.precision = judged.halfWidth;
  if (judged.stop === undefined) return;
  tally.stoppedBy = judged.stop;
  s.loadAtEnd = readLoad();
  ctx.tracker.endRepeats(s.strategy);
}

/** A repeat that throws fails its strategy (its group's units are skipped); a cancel stops the run. */
async function repeatOrFail(ctx: MeasureContext, s: StrategyInProgress): Promise<void> {
  if (!s.calls) return;
  try {
    await repeatOnce(ctx, s, s.calls);
  } catch (e) {
    if (ctx.signal.aborted || isCancellation(e)) throw e;
    s.error = e;
    s.loadAtEnd = readLoad();
    ctx.tracker.skipRest(s.strategy);
    ctx.emitProgress();
  }
}

/** Rounds of one repeat per strategy still measuring, until none is; `afterRound` sees each round's end. */
export async function interleavedRepeats(ctx: MeasureContext, strategies: readonly StrategyInProgress[], afterRound: () => void): Promise<void> {
  for (let measuring = strategies.filter(isMeasuring); measuring.length > 0; measuring = strategies.filter(isMeasuring)) {
    for (const s of measuring) await repeatOrFail(ctx, s);
    afterRound();
  }
}
