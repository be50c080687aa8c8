/**
 * A stand-in engine for tests of the measurement loop and the host: no tfjs, deterministic
 * likelihoods, configurable failures, leaks and slowness. Not used by the product.
 */
import type { StrategyChoice } from '../../shared/config';
import type { Dataset } from '../../shared/dataset';
import { AppError } from '../../shared/errors';
import { loadDataset } from '../data';
import { aggregateKernels, stageTimes } from '../recorder';
import type { EngineDeps, FittedModel } from './engineDeps';

export interface FakeEngineOptions {
  /** strategies that throw from predict */
  failing?: StrategyChoice[];
  /** strategies that leave one tensor behind per call */
  leaking?: StrategyChoice[];
  /** busy-waits this long per electrode in predict, holding the event loop like wasm compute */
  busyMsPerElectrode?: number;
}

function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // deliberately blocking
  }
}

export function fakeEngineDeps(options: FakeEngineOptions = {}): EngineDeps {
  let tensors = 0;
  const offset = (s: StrategyChoice) => (s === 'reference' ? 0 : 1e-6);
  return {
    listBackends: async () => [{ name: 'cpu', available: true, detail: 'fake CPU', isGpu: false }],
    tfjsVersion: () => '0.0.0',
    loadDataset,
    initBackend: async () => ({
      name: 'cpu', device: 'fake CPU', isGpu: false, isFallback: false, reason: 'test', tfjsVersion: '0.0.0', initMs: 1, warnings: [],
    }),
    engineMemory: () => ({ numTensors: tensors, numBytes: tensors * 4 }),
    fitEncodingModel: async (d: Dataset, probe): Promise<FittedModel> => {
      const nBins = d.placeBinCenters.length / d.positionDims;
      await probe?.span('occupancy', () => undefined);
      tensors += 2;
      let disposed = false;
      return {
        occupancy: new Float64Array(nBins).fill(1),
        meanRates: new Float64Array(d.electrodes.length).fill(0.1),
        summedGroundProcessIntensity: new Float64Array(nBins).fill(0.5),
        dispose: () => {
          if (!disposed) tensors -= 2;
          disposed = true;
        },
      };
    },
    predictNonlocal: async (_m, d, strategy, _o, probe) => {
      if (options.failing?.includes(strategy)) throw new AppError('INTERNAL', `${strategy} is broken in this test`);
      if (options.leaking?.includes(strategy)) tensors += 1;
      const nTime = d.time.length;
      const nBins = d.placeBinCenters.length / d.positionDims;
      for (let e = 0; e < d.electrodes.length; e++) {
        if (probe?.cancelled()) throw new AppError('CANCELLED', 'the run was cancelled');
        await probe?.span(`electrode ${e}`, () => busyWait(options.busyMsPerElectrode ?? 0));
        probe?.progress((e + 1) / d.electrodes.length, `electrode ${e + 1}/${d.electrodes.length}`);
      }
      const ll = new Float64Array(nTime * nBins);
      for (let t = 0; t < nTime; t++) ll[t * nBins + (t % nBins)] = 1 + offset(strategy);
      return {
        logLikelihood: ll, nTime, nBins,
        resolved: d.electrodes.map(() => (strategy === 'auto' ? 'compensated' : strategy)),
        floorShare: d.electrodes.map(() => 0),
        nTerms: d.electrodes.map((e) => e.decodingSpikeTimes.length * nBins),
      };
    },
    predictLocal: async (_m, d) => new Float64Array(d.time.length).fill(-1),
    profileKernels: async (fn) => {
      const result = await fn();
      return { result, kernels: [{ name: 'Exp', kernelTimeMs: 0.5, bytesAdded: 16 }], peakBytes: 64 };
    },
    strategyOptionsFor: (d, c) => ({ blockSize: c.blockSize ?? d.params.blockSize }),
    aggregateKernels,
    stageTimes,
  };
}
