/**
 * A stand-in engine for tests of the measurement loop and the host: no tfjs, deterministic
 * likelihoods, configurable failures, leaks and slowness. Not used by the product.
 */
import { isDispatch, type StrategyChoice } from '../../shared/config';
import type { Dataset } from '../../shared/dataset';
import { AppError } from '../../shared/errors';
import { electrodeArgs, ELECTRODE_SPAN, WINDOWS_SPAN } from '../../shared/traceSpans';
import { loadDataset } from '../data';
import { throwIfCancelled } from '../engine/model';
import type { BatchTime, EngineProbe, NonlocalResult } from '../engine/types';
import { aggregateKernels } from '../recorder';
import type { EngineDeps, FittedModel, WindowListener } from './session/engineDeps';

export interface FakeEngineOptions {
  /** strategies that throw from predict */
  failing?: StrategyChoice[];
  /** strategies that leave one tensor behind per call */
  leaking?: StrategyChoice[];
  /** busy-waits this long per electrode in predict, holding the event loop like wasm compute */
  busyMsPerElectrode?: number;
  /** predictLocal throws (the detector posterior's Local state cannot be computed) */
  failingLocal?: boolean;
  /** this row of the likelihood is NaN in its first bin (a broken strategy's output) */
  nanRow?: number;
}

function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // deliberately blocking
  }
}

/** The fake predict's rows, handed out in windows the way the engine's windowed predict does, each holding the loop `busyMs`. */
async function inWindows(
  full: NonlocalResult, rowsPerWindow: number, onWindow: WindowListener, busyMs: number, signal?: AbortSignal, probe?: EngineProbe,
): Promise<BatchTime[]> {
  const step = Math.max(2, Math.floor(rowsPerWindow));
  const batches: BatchTime[] = [];
  for (let r0 = 0; r0 < full.nTime; r0 += step) {
    throwIfCancelled(signal);
    const r1 = Math.min(full.nTime, r0 + step);
    const t0 = performance.now();
    await probe?.span(WINDOWS_SPAN, () => busyWait(busyMs), { firstWindow: batches.length, lastWindow: batches.length, windows: 1, rows: r1 - r0, startRow: r0 });
    await onWindow(r0, r1 - r0, full.logLikelihood.subarray(r0 * full.nBins, r1 * full.nBins));
    probe?.progress(r1 / full.nTime, `rows ${r1}/${full.nTime}`);
    batches.push({ rows: r1 - r0, ms: performance.now() - t0 });
  }
  return batches;
}

export function fakeEngineDeps(options: FakeEngineOptions = {}): EngineDeps {
  let tensors = 0;
  const offset = (s: StrategyChoice) => (s === 'reference' ? 0 : 1e-6);
  const deps: EngineDeps = {
    listBackends: async () => [{ name: 'cpu', available: true, detail: 'fake CPU', isGpu: false }],
    tfjsVersion: () => '0.0.0',
    loadDataset,
    initBackend: async () => ({
      name: 'cpu', device: 'fake CPU', isGpu: false, isFallback: false, reason: 'test', tfjsVersion: '0.0.0', initMs: 1, warnings: [],
    }),
    calibrate: async (b) => ({
      backend: b.name, device: b.device, matmulGflops: 30, expGelemsPerS: 0.15, logGelemsPerS: 0.25, bandwidthGBps: 25,
      measuredAt: new Date(0).toISOString(), durationMs: 0,
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
    predictNonlocal: async (_m, d, strategy, o, probe) => {
      if (options.failing?.includes(strategy)) throw new AppError('INTERNAL', `${strategy} is broken in this test`);
      if (options.leaking?.includes(strategy)) tensors += 1;
      const nTime = d.time.length;
      const nBins = d.placeBinCenters.length / d.positionDims;
      for (let e = 0; e < d.electrodes.length; e++) {
        throwIfCancelled(o.signal);
        await probe?.span(ELECTRODE_SPAN, () => busyWait(options.busyMsPerElectrode ?? 0), electrodeArgs(e, d.electrodes[e]!.name));
        probe?.progress((e + 1) / d.electrodes.length, `electrode ${e + 1}/${d.electrodes.length}`);
      }
      const ll = new Float64Array(nTime * nBins);
      for (let t = 0; t < nTime; t++) ll[t * nBins + (t % nBins)] = 1 + offset(strategy);
      if (options.nanRow !== undefined && options.nanRow < nTime) ll[options.nanRow * nBins] = NaN;
      return {
        logLikelihood: ll, nTime, nBins,
        resolved: d.electrodes.map(() => (isDispatch(strategy) ? 'compensated' : strategy)),
        floorShare: d.electrodes.map(() => 0),
        nTerms: d.electrodes.map((e) => e.decodingSpikeTimes.length * nBins),
      };
    },
    predictNonlocalWindows: async (m, d, strategy, o, rowsPerWindow, onWindow, probe) => {
      const full = await deps.predictNonlocal(m, d, strategy, o);
      // one window a batch: each has a time of its own
      const batches = await inWindows(full, rowsPerWindow, onWindow, options.busyMsPerElectrode ?? 0, o.signal, probe);
      const totalTerms = full.nTerms.reduce((a, b) => a + b, 0);
      return { nTime: full.nTime, nBins: full.nBins, windows: batches.length, resolved: full.resolved, resolvedReasons: [], flooredTerms: 0, totalTerms, batches };
    },
    predictLocal: async (_m, d) => {
      if (options.failingLocal) throw new AppError('INTERNAL', 'the local likelihood is broken in this test');
      return new Float64Array(d.time.length).fill(-1);
    },
    profileKernels: async (fn) => {
      const result = await fn();
      return { result, kernels: [{ name: 'Exp', kernelTimeMs: 0.5, bytesAdded: 16 }], peakBytes: 64 };
    },
    strategyOptionsFor: (d, c) => ({ blockSize: c.blockSize ?? d.params.blockSize }),
    aggregateKernels,
  };
  return deps;
}
