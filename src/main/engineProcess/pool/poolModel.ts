/**
 * The main thread's view of a model the pool fitted: its host arrays, which worker holds which
 * electrode, and the workers' kernel profiles collected while profileKernels runs.
 */
import type { Dataset } from '../../../shared/dataset';
import type { FittedModel } from '../session';
import type { EnginePool, WorkerFit } from './enginePool';
import type { WorkerProfile } from './poolProtocol';

type Engine = typeof import('../../engine');

/** A model whose electrodes live in the workers that fitted them. */
export class PoolModel implements FittedModel {
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
export class ProfileCollector {
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

export function assembleModel(pool: EnginePool, engine: Engine, dataset: Dataset, id: number, assignment: number[][], fits: WorkerFit[]): PoolModel {
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
