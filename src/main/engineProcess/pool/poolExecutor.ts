/**
 * The pool as the likelihood's executor (engine/likelihood/executor.ts): each worker computes the
 * planned electrodes it fitted, under the strategy the plan names, and says what series' bound
 * proves for their marks when the plan asks (those facts live where the electrode was fitted).
 * It resolves nothing: the plan is made once, on the main thread, and run as given.
 */
import type { ElectrodeMarks, NonlocalExecutor, NonlocalPlan, PlannedTerms, PredictOptions, TermListener } from '../../engine';
import { BugError } from '../../../shared/errors';
import { DEFAULT_MEMORY_BUDGET_BYTES, type SeriesReach } from '../../engine/model';
import type { EnginePool } from './enginePool';
import type { PoolModel, ProfileCollector } from './poolModel';

/** An array that owns its whole buffer, as a message should carry it (a view's clone would drag its whole buffer along). */
function compact(values: Float64Array): Float64Array {
  return values.byteOffset === 0 && values.byteLength === values.buffer.byteLength ? values : values.slice();
}

/** What each worker is asked about: the items of its own electrodes, in the order it fitted them. */
function perWorker<T extends { electrode: number }>(model: PoolModel, items: readonly T[]): T[][] {
  const byElectrode = new Map(items.map((item) => [item.electrode, item]));
  return model.assignment.map((list) => list.flatMap((e) => byElectrode.get(e) ?? []));
}

async function seriesReach(pool: EnginePool, model: PoolModel, asks: readonly ElectrodeMarks[]): Promise<SeriesReach[]> {
  const sent = perWorker(model, asks.map((a) => ({ electrode: a.electrode, marks: compact(a.marks), nDec: a.nDec })));
  const answers = await pool.reach(model.id, sent);
  const reaches = new Map<number, SeriesReach>();
  sent.forEach((list, w) => list.forEach((a, i) => reaches.set(a.electrode, answers[w]![i]!)));
  return asks.map((a) => {
    const reach = reaches.get(a.electrode);
    if (!reach) throw new BugError(`engine pool: no worker holds electrode ${a.electrode}`);
    return reach;
  });
}

/** The plan's electrodes with terms, as the workers that fitted them get them. */
function plannedWork(model: PoolModel, plan: NonlocalPlan): PlannedTerms[][] {
  const work = plan.electrodes
    .filter((p) => p.kind === 'terms')
    .map((p) => ({ electrode: p.electrode, choice: p.choice, marks: compact(p.marks), nDec: p.nDec }));
  return perWorker(model, work);
}

function start(pool: EnginePool, model: PoolModel, profiles: ProfileCollector, plan: NonlocalPlan, options: PredictOptions) {
  const { signal: _signal, ...workerOptions } = options;
  // the workers' kept position kernels share the run's memory budget between them
  const keptBudget = options.positionKernelBudgetBytes ?? options.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  workerOptions.positionKernelBudgetBytes = keptBudget / pool.size;
  const route: { sum?: TermListener } = {};
  const answers = pool.predict(model.id, plannedWork(model, plan), workerOptions, profiles.active, {
    onTerms: (electrode, first, values, release) => route.sum!.onTerms(electrode, first, values, release),
    onElectrodeDone: (electrode) => route.sum!.onElectrodeDone(electrode),
  });
  // awaited in `into`; until then a worker's failure must not count as unhandled
  answers.catch(() => undefined);
  return {
    async into(terms: TermListener): Promise<void> {
      route.sum = terms;
      profiles.add((await answers).profiles);
    },
  };
}

export function poolExecutor(pool: EnginePool, model: PoolModel, profiles: ProfileCollector): NonlocalExecutor {
  return {
    model,
    seriesReach: (asks) => seriesReach(pool, model, asks),
    start: (plan, options) => start(pool, model, profiles, plan, options),
  };
}
