/**
 * The calls a strategy is measured by: one fit + predict, timed per phase, under the span of the
 * loop's step it belongs to (cold, a warm-up, a repeat), and the one call that is kernel-profiled.
 */
import type { StrategyChoice } from '../../../shared/config';
import { WARMUP_SPAN } from '../../../shared/traceSpans';
import type { EngineProbe, NonlocalResult, PredictOptions } from '../../engine';
import { markProbe, probeAutoStrategy } from '../autoProbe';
import type { FittedModel } from '../session';
import { fitOptionsFor } from './fitOptions';
import { clockOf, nextStep, type MeasureContext } from './measureContext';

export interface CallTiming {
  encodeMs: number;
  decodeMs: number;
  totalMs: number;
}

export interface CallOutput {
  timing: CallTiming;
  result: NonlocalResult;
  fit: Pick<FittedModel, 'occupancy' | 'meanRates' | 'summedGroundProcessIntensity'>;
}

/** What the kernel-profiled call found: its kernels, and the peak of its decode phase. */
export interface ProfiledCall {
  kernels: unknown[];
  peakBytes: number;
}

/** the span around the profiled call, so its cost can be read off the trace */
const PROFILE_SPAN = 'kernel-profile';

type Wrap = <T>(phase: 'encode' | 'decode', fn: () => Promise<T>) => Promise<T>;
const unwrapped: Wrap = (_phase, fn) => fn();

/**
 * The predict's options: the run's, with `auto`'s probe where it ran. Stages do not wait for the
 * device, as a decode's do not: on webgpu a wait per stage is a round trip a decode never pays,
 * and the device then sums the rows and reads them back once. The warm repeats' stage times come
 * from the GPU's own timestamps instead (interleavedRepeats.ts). Synchronous backends have
 * finished each op when it returns, so there this changes nothing.
 */
function optionsFor(ctx: MeasureContext, strategy: StrategyChoice): PredictOptions {
  const probed = strategy === 'auto' && ctx.autoProbe ? { probed: ctx.autoProbe.probed } : {};
  return { ...ctx.options, ...probed, signal: ctx.signal, stageSync: false };
}

/**
 * fit + predict, each in its own span and timed; the model's tensors are freed before returning.
 * `wrap` lets the kernel-profiled call profile encode and decode separately; `rec` is what the
 * spans and the engine report through (a timed repeat's gives each span its GPU time).
 */
export async function fitAndPredict(ctx: MeasureContext, strategy: StrategyChoice, wrap: Wrap = unwrapped, rec: EngineProbe = ctx.rec): Promise<CallOutput> {
  const { deps, dataset } = ctx;
  const now = clockOf(ctx);
  const t0 = now();
  const model = await rec.span('encode', () => wrap('encode', () => deps.fitEncodingModel(dataset, rec, fitOptionsFor(strategy, ctx.options.memoryBudgetBytes))));
  const t1 = now();
  try {
    // `auto`'s probe, once, in its first call (the cold one): part of what auto's first decode costs
    if (strategy === 'auto' && ctx.autoProbe === undefined) {
      const measured = await rec.span('auto-probe', () => probeAutoStrategy(deps, model, dataset, ctx.options, ctx.signal));
      // on the timeline as a decode's summary keeps it: what was timed, and what auto follows
      if (measured) markProbe(rec, measured);
      ctx.autoProbe = measured;
    }
    const result = await rec.span('decode', () =>
      wrap('decode', () => deps.predictNonlocal(model, dataset, strategy, optionsFor(ctx, strategy), rec)),
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
export interface LoopStep {
  span: string;
  args?: Record<string, unknown>;
  shown: string;
}

export const numberedStep = (span: string, i: number, shown = `${span} ${i}`): LoopStep => ({ span, args: { [span]: i }, shown });

/** One call under its step's span, as one unit of the strategy's progress group. */
export async function unit<T>(ctx: MeasureContext, group: string, step: LoopStep, fn: () => Promise<T>): Promise<T> {
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

/**
 * One call profiled: the kernels of encode and decode together (on webgpu each one also a span on
 * the GPU's lane, from its timestamps); the peak of decode alone, which
 * is what the strategy's memory formula describes (the fit's transient tiles are the same for every
 * strategy). It takes the place of the last warmup call (warmups are not timed), so it costs the
 * run only tf.profile's own overhead; with no warmup it is one call more.
 */
export async function kernelProfile(ctx: MeasureContext, strategy: StrategyChoice, group: string): Promise<ProfiledCall> {
  const profiled: ProfiledCall = { kernels: [], peakBytes: 0 };
  const call = () => ctx.rec.span(PROFILE_SPAN, () =>
    fitAndPredict(ctx, strategy, async (phase, fn) => {
      const p = await ctx.deps.profileKernels(fn);
      profiled.kernels.push(...p.kernels);
      if (p.deviceSpans) ctx.rec.deviceSpans(p.deviceSpans, p.deviceLane ?? 'GPU');
      if (phase === 'decode') profiled.peakBytes = p.peakBytes;
      return p.result;
    }));
  const { warmup } = ctx.config;
  const step = warmup > 0 ? numberedStep(WARMUP_SPAN, warmup) : { span: 'profiled call', shown: 'profiled call' };
  const out = await unit(ctx, group, step, call);
  out.result.release?.();
  return profiled;
}
