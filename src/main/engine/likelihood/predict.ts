/**
 * Non-local predict (kde-spec §4.1–4.5), one pipeline whoever computes: the plan (plan.ts: per
 * electrode its spikes and its strategy, resolved once), the terms (an executor, executor.ts: this
 * thread or the pool's workers), and their sum, LL[t, p] = −Λ(p) plus each electrode's floored
 * spike terms added to the row of their spike in electrode order (orderedTermSum.ts). The
 * scatter-add happens on the host in float64, which is exact, order-independent and the same on
 * every backend (wasm registers no UnsortedSegmentSum); see likelihoodSum.ts.
 */
import type { StrategyChoice } from '../../../shared/config';
import { BugError } from '../../../shared/errors';
import type { Dataset } from '../../../shared/dataset';
import { throwIfCancelled } from '../model';
import type { EncodingModel } from '../fit';
import { NULL_PROBE, type EngineProbe, type NonlocalResult, type PredictOptions } from '../types';
import { inThreadExecutor, type NonlocalExecutor } from './executor';
import { LikelihoodSum } from './likelihoodSum';
import { OrderedTermSum } from './orderedTermSum';
import { planNonlocal, type NonlocalPlan } from './plan';

/** What the plan chose, per electrode, and its share of terms on the floor. */
function resultOf(plan: NonlocalPlan, nBins: number, floored: readonly number[], likelihood: LikelihoodSum): NonlocalResult {
  const nTerms = plan.electrodes.map((p) => p.nDec * nBins);
  return {
    logLikelihood: likelihood.ll,
    nTime: plan.nTime,
    nBins,
    resolved: plan.electrodes.map((p) => p.choice.strategy),
    resolvedReasons: plan.electrodes.map((p) => p.choice.reason ?? ''),
    floorShare: plan.electrodes.map((p, e) => (p.kind === 'none' ? NaN : p.kind === 'floor' ? 1 : floored[e]! / nTerms[e]!)),
    nTerms,
    release: () => likelihood.release(),
  };
}

/** The plan run as it is given: its terms by `executor`, summed in electrode order. */
export async function runNonlocalPlan(
  executor: NonlocalExecutor, plan: NonlocalPlan, options: PredictOptions, probe: EngineProbe = NULL_PROBE,
): Promise<NonlocalResult> {
  throwIfCancelled(options.signal);
  const { nBins, summedGroundProcessIntensity } = executor.model;
  const running = executor.start(plan, options, probe);
  // built while a pool's workers compute: the likelihood is nTime × nBins float64 of fresh pages
  const likelihood = new LikelihoodSum(summedGroundProcessIntensity, plan.nTime);
  const n = plan.electrodes.length;
  let summed = 0;
  const sum = new OrderedTermSum(likelihood, plan.electrodes, () => {
    summed++;
    probe.progress(summed / n, `electrode ${summed}/${n}`);
  });
  await running.into(sum);
  if (!sum.complete) throw new BugError(`non-local predict: electrode ${summed} of ${n} never finished`);
  return resultOf(plan, nBins, sum.floored, likelihood);
}

/** A predict of `strategy` on dataset's grid with the electrodes `executor` holds: planned once, then run. */
export async function predictNonlocalWith(
  executor: NonlocalExecutor, dataset: Dataset, strategy: StrategyChoice, options: PredictOptions, probe: EngineProbe = NULL_PROBE,
): Promise<NonlocalResult> {
  throwIfCancelled(options.signal);
  const plan = await planNonlocal(executor, dataset, strategy, options);
  return runNonlocalPlan(executor, plan, options, probe);
}

/** The engine's own predict, on this thread. */
export function predictNonlocal(
  model: EncodingModel, dataset: Dataset, strategy: StrategyChoice, options: PredictOptions, probe: EngineProbe = NULL_PROBE,
): Promise<NonlocalResult> {
  return predictNonlocalWith(inThreadExecutor(model), dataset, strategy, options, probe);
}
