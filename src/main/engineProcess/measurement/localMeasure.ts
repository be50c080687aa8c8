/**
 * The local likelihood (spec §4.6): one fit, then a cold predict, warm-ups and timed repeats of
 * predictLocal alone, its agreement with the file's expected values, and its cost against a
 * non-local decode of the same run.
 */
import type { Agreement, Report, StrategyResult, TimingStats } from '../../../shared/report';
import { isExternalEngineName } from '../../../shared/externalEngines';
import { REPEAT_SPAN, WARMUP_SPAN } from '../../../shared/traceSpans';
import { compareArrays, timingStats } from '../../analysis';
import { nextStep, type MeasureContext } from './measureContext';

export const LOCAL_GROUP = 'local';

export interface LocalMeasurement {
  timing: TimingStats;
  agreementWithExpected?: Agreement;
  /** (nTime × 1) */
  likelihood: Float64Array;
}

export async function measureLocal(ctx: MeasureContext): Promise<LocalMeasurement> {
  const { deps, dataset, rec, config } = ctx;
  return rec.span(LOCAL_GROUP, async () => {
    const model = await rec.span('encode', () => deps.fitEncodingModel(dataset, rec));
    try {
      // the span keeps one name per kind of call; which call it was goes in its args
      const timed = async (span: string, i?: number): Promise<{ ms: number; values: Float64Array }> => {
        await nextStep(ctx.signal);
        ctx.tracker.beginUnit(LOCAL_GROUP, i === undefined ? span : `${span} ${i}`);
        ctx.emitProgress();
        const out = await rec.span(span, async () => {
          const t0 = performance.now();
          const values = await rec.span('decode', () => deps.predictLocal(model, dataset, rec));
          return { ms: performance.now() - t0, values };
        }, i === undefined ? undefined : { [span]: i });
        ctx.tracker.endUnit();
        ctx.emitProgress();
        return out;
      };
      const cold = await timed('cold');
      for (let i = 1; i <= config.warmup; i++) await timed(WARMUP_SPAN, i);
      const samples: number[] = [];
      let last = cold;
      for (let i = 1; i <= config.repeats; i++) {
        last = await timed(REPEAT_SPAN, i);
        samples.push(last.ms);
      }
      const out: LocalMeasurement = { timing: timingStats(cold.ms, samples), likelihood: last.values };
      const expected = dataset.expected?.logLikelihoodLocal;
      if (expected && expected.length === last.values.length) {
        out.agreementWithExpected = compareArrays(last.values, expected, last.values.length, 1, 'expected');
      }
      return out;
    } finally {
      model.dispose();
    }
  });
}

type LocalRatio = NonNullable<NonNullable<Report['local']>['ratioToNonlocal']>;

/**
 * The local decode's warm median ÷ a non-local decode's: the reference strategy's where it ran,
 * else the first strategy that did. Both are wall-clock times of the decode alone (the fit is
 * outside either); undefined when no non-local decode has a positive median.
 */
export function localRatioToNonlocal(local: Pick<LocalMeasurement, 'timing'>, strategies: readonly StrategyResult[]): LocalRatio | undefined {
  // the engine's own strategies only: an external engine's decode is not this engine's non-local decode
  const decoded = strategies.flatMap((r) =>
    r.status === 'ok' && r.decode !== undefined && r.decode.medianMs > 0 && !isExternalEngineName(r.strategy) ? [{ strategy: r.strategy, decode: r.decode }] : []);
  const against = decoded.find((r) => r.strategy === 'reference') ?? decoded[0];
  const ratio = against ? local.timing.medianMs / against.decode.medianMs : NaN;
  return against && Number.isFinite(ratio) ? { against: against.strategy, ratio } : undefined;
}
