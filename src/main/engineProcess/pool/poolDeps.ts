/**
 * EngineDeps over a pool of workers: fit, predict and the local likelihood spread the electrodes
 * over the workers, everything else (data, backend on the main thread, aggregations) stays with
 * the engine process's own deps. The measurement loop, the decode loop and their traces do not
 * know which they were given.
 */
import type { Dataset } from '../../../shared/dataset';
import type { EngineProbe } from '../../engine/model';
import type { LocalElectrodeTerms } from '../../engine';
import { AppError } from '../../../shared/errors';
import type { EngineDeps, FittedModel, KernelProfile } from '../session';
import { assignElectrodes } from './assignment';
import type { EnginePool } from './enginePool';
import { poolExecutor } from './poolExecutor';
import { assembleModel, ProfileCollector, type PoolModel } from './poolModel';
import type { DecodingShare } from './poolProtocol';

type Engine = typeof import('../../engine');

/** The raw decoding spikes of each worker's electrodes, compact copies (a window's views would drag their whole buffer along). */
function sharesOf(dataset: Dataset, assignment: number[][]): DecodingShare[][] {
  return assignment.map((list) => list.map((e) => {
    const el = dataset.electrodes[e]!;
    return { electrode: e, times: el.decodingSpikeTimes.slice(), features: el.decodingFeatures.slice() };
  }));
}

/**
 * The local likelihood with the workers' own electrodes (no second fit on the main thread). Their
 * terms are added in electrode order, those that come early held until their turn, so the result
 * is bitwise what one thread computes.
 */
async function poolLocal(pool: EnginePool, engine: Engine, model: PoolModel, dataset: Dataset, probe: EngineProbe): Promise<Float64Array> {
  const ll = new Float64Array(dataset.time.length);
  const waiting = new Map<number, LocalElectrodeTerms>();
  let next = 0;
  const total = dataset.electrodes.length;
  await pool.local(model.id, dataset.time.slice(), sharesOf(dataset, model.assignment), (terms) => {
    waiting.set(terms.electrode, terms);
    for (let t = waiting.get(next); t; t = waiting.get(next)) {
      engine.addLocalTerms(ll, t);
      waiting.delete(next++);
    }
    probe.progress(next / total, `electrode ${next}/${total}`);
  });
  // electrodes no worker holds (none: the assignment covers them all) would leave the order waiting
  if (next < total) throw new AppError('BUG', `local likelihood: electrode ${next} never came back from the pool`);
  return ll;
}

export async function poolEngineDeps(base: EngineDeps, pool: EnginePool): Promise<EngineDeps> {
  const engine = await import('../../engine');
  const profiles = new ProfileCollector();
  const asPoolModel = (m: FittedModel): PoolModel => m as PoolModel;
  const executorOf = (m: FittedModel) => poolExecutor(pool, asPoolModel(m), profiles);
  return {
    ...base,
    engineMemory: () => {
      const own = base.engineMemory();
      return { numTensors: own.numTensors + pool.tensorCount(), numBytes: own.numBytes };
    },
    async fitEncodingModel(dataset, _probe, options = {}) {
      const assignment = assignElectrodes(dataset, pool.size);
      // each worker keeps kernels within its share of the budget
      const perWorker = { ...options, keepPositionKernelBytes: (options.keepPositionKernelBytes ?? 0) / pool.size };
      const shared = await pool.occupancyParts(dataset, assignment, engine.occupancyPartCount(dataset, options), options, profiles.active);
      profiles.add(shared.profiles);
      const logOccupancy = engine.mergeOccupancy(dataset, shared.parts);
      const { model, fits } = await pool.fit(dataset, assignment, perWorker, logOccupancy, profiles.active);
      profiles.add(fits.map((f) => f.profile));
      return assembleModel(pool, engine, dataset, model, assignment, fits);
    },
    predictNonlocal: (model, dataset, strategy, options, probe) => engine.predictNonlocalWith(executorOf(model), dataset, strategy, options, probe),
    predictNonlocalWindows: (model, dataset, strategy, options, rowsPerWindow, onWindow, probe) =>
      engine.predictNonlocalWindowsWith(executorOf(model), dataset, strategy, options, rowsPerWindow, onWindow, probe),
    predictLocal: (model, dataset, probe = engine.NULL_PROBE) => poolLocal(pool, engine, asPoolModel(model), dataset, probe),
    // the workers' devices do the work: a GPU timer here would see none of it
    openStageTimer: () => engine.untimedStageTimer(engine.stageClock() === 'host' ? 'host' : 'unsplit'),
    async profileKernels<T>(fn: () => Promise<T>): Promise<KernelProfile<T>> {
      profiles.active = true;
      profiles.kernels = [];
      profiles.peakBytes = -Infinity;
      try {
        return { result: await fn(), kernels: profiles.kernels, peakBytes: profiles.peakBytes };
      } finally {
        profiles.active = false;
      }
    },
  };
}
