/**
 * EngineDeps over a pool of workers: fit, predict and the local likelihood spread the electrodes
 * over the workers, everything else (data, backend on the main thread, aggregations) stays with
 * the engine process's own deps. The measurement loop, the decode loop and their traces do not
 * know which they were given.
 */
import type { StrategyChoice } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { DEFAULT_MEMORY_BUDGET_BYTES, electrodeStrategy, type EngineProbe } from '../../engine/model';
import type { ElectrodeRows, LocalElectrodeTerms, NonlocalResult, PredictOptions, TermListener } from '../../engine';
import { AppError } from '../../../shared/errors';
import type { EngineDeps, FittedModel, KernelProfile } from '../engineDeps';
import { assignElectrodes } from './assignment';
import type { EnginePool, WorkerFit } from './enginePool';
import type { DecodingShare, WorkerProfile } from './poolProtocol';

type Engine = typeof import('../../engine');

/** A model whose electrodes live in the workers that fitted them. */
class PoolModel implements FittedModel {
  private released = false;

  constructor(
    private readonly pool: EnginePool,
    readonly id: number,
    readonly assignment: number[][],
    readonly occupancy: Float64Array,
    readonly meanRates: Float64Array,
    readonly summedGroundProcessIntensity: Float64Array,
    readonly nEnc: Int32Array,
    readonly nBins: number,
  ) {}

  dispose(): void {
    if (this.released) return;
    this.released = true;
    this.pool.releaseSoon(this.id);
  }
}

/** Collects the workers' kernel profiles while profileKernels runs. */
class ProfileCollector {
  active = false;
  kernels: unknown[] = [];
  peakBytes = -Infinity;

  add(profiles: readonly (WorkerProfile | undefined)[]): void {
    for (const p of profiles) {
      if (!p) continue;
      this.kernels.push(...p.kernels);
      if (Number.isFinite(p.peakBytes)) this.peakBytes = Math.max(this.peakBytes, p.peakBytes);
    }
  }
}

function assembleModel(pool: EnginePool, engine: Engine, dataset: Dataset, id: number, assignment: number[][], fits: WorkerFit[]): PoolModel {
  const n = dataset.electrodes.length;
  const nBins = dataset.placeBinCenters.length / dataset.positionDims;
  const perElectrode: Float64Array[] = new Array<Float64Array>(n);
  const meanRates = new Float64Array(n);
  const nEnc = new Int32Array(n);
  for (const fit of fits) {
    for (const s of fit.electrodes) {
      perElectrode[s.electrode] = s.groundProcessIntensity;
      meanRates[s.electrode] = s.meanRate;
      nEnc[s.electrode] = s.nEnc;
    }
  }
  const summed = engine.sumGroundProcess(perElectrode, nBins);
  const occupancy = fits[0]?.occupancy ?? new Float64Array(nBins);
  return new PoolModel(pool, id, assignment, occupancy, meanRates, summed, nEnc, nBins);
}

/** The raw decoding spikes of each worker's electrodes, compact copies (a window's views would drag their whole buffer along). */
function sharesOf(dataset: Dataset, assignment: number[][]): DecodingShare[][] {
  return assignment.map((list) => list.map((e) => {
    const el = dataset.electrodes[e]!;
    return { electrode: e, times: el.decodingSpikeTimes.slice(), features: el.decodingFeatures.slice() };
  }));
}

async function poolPredict(
  pool: EnginePool, engine: Engine, profiles: ProfileCollector,
  model: PoolModel, dataset: Dataset, strategy: StrategyChoice, options: PredictOptions, probe: EngineProbe,
): Promise<NonlocalResult> {
  const nTime = dataset.time.length;
  const { nBins } = model;
  const { signal: _signal, ...strategyOptions } = options;
  // the workers' kept position kernels share the run's memory budget between them
  const keptBudget = options.positionKernelBudgetBytes ?? options.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  strategyOptions.positionKernelBudgetBytes = keptBudget / pool.size;
  // The workers start first: the likelihood (nTime × nBins float64, fresh pages) and the spike rows
  // are built while they compute. No term can arrive before this function awaits, since the
  // workers' answers are handled on this thread's event loop, so the sum exists by then.
  const route: { sum?: TermListener } = {};
  const terms: TermListener = {
    onTerms: (electrode, start, values, release) => route.sum!.onTerms(electrode, start, values, release),
    onElectrodeDone: (electrode) => route.sum!.onElectrodeDone(electrode),
  };
  const answers = pool.predict(model.id, strategy, strategyOptions, dataset.time.slice(), sharesOf(dataset, model.assignment), profiles.active, terms);
  // awaited below; until then a worker's failure must not count as unhandled
  answers.catch(() => undefined);
  const likelihood = new engine.LikelihoodSum(model.summedGroundProcessIntensity, nTime);
  const result: NonlocalResult = {
    logLikelihood: likelihood.ll, nTime, nBins, resolved: [], resolvedReasons: [], floorShare: [], nTerms: [], release: () => likelihood.release(),
  };
  const electrodes: ElectrodeRows[] = dataset.electrodes.map((el, e) => {
    const dec = engine.decodingSpikes(dataset, e);
    const nDec = dec.times.length;
    // what the worker chose replaces this once it answers (auto weighs the marks, which sizes do not show)
    const sizes = { nEnc: model.nEnc[e]!, nDec, nBins, nFeatures: el.nFeatures, positionDims: dataset.positionDims, nTime };
    const choice = electrodeStrategy(strategy, sizes, options);
    result.resolved.push(choice.strategy);
    result.resolvedReasons!.push(choice.reason ?? '');
    result.nTerms.push(nDec * nBins);
    return { kind: engine.electrodeTermsKind(nDec, model.nEnc[e]!), rows: dec.rows };
  });
  let summedCount = 0;
  const sum = new engine.OrderedTermSum(likelihood, electrodes, () => {
    summedCount++;
    probe.progress(summedCount / electrodes.length, `electrode ${summedCount}/${electrodes.length}`);
  });
  route.sum = sum;
  const answered = await answers;
  profiles.add(answered.profiles);
  for (const c of answered.choices) {
    result.resolved[c.electrode] = c.strategy;
    result.resolvedReasons![c.electrode] = c.reason ?? '';
  }
  electrodes.forEach((el, e) => {
    const nDec = el.rows.length;
    result.floorShare.push(el.kind === 'none' ? NaN : el.kind === 'floor' ? 1 : sum.floored[e]! / (nDec * nBins));
  });
  return result;
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
  const predictNonlocal = (model: FittedModel, dataset: Dataset, strategy: StrategyChoice, options: PredictOptions, probe: EngineProbe = engine.NULL_PROBE) =>
    poolPredict(pool, engine, profiles, asPoolModel(model), dataset, strategy, options, probe);
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
    predictNonlocal,
    predictLocal: (model, dataset, probe = engine.NULL_PROBE) => poolLocal(pool, engine, asPoolModel(model), dataset, probe),
    predictNonlocalWindows: (model, dataset, strategy, options, rowsPerWindow, onWindow, probe) =>
      engine.predictNonlocalWindows(model, dataset, strategy, options, rowsPerWindow, onWindow, probe, predictNonlocal),
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
