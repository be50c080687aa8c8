/**
 * `--backend auto` measured, not assumed: where a hardware GPU adapter is present, the GPU and
 * the CPU each fit and decode the same slice of this run's data (its largest electrode, a couple
 * of blocks of its decoding spikes, every bin), warm, and the faster takes the run. The CPU's time
 * is per electrode on the worker threads the run would give it (electrodes are independent and
 * spread over the threads; one device takes them one after another), so the comparison is the one
 * the run will live with. A GPU that measured slower says so in the reason and a warning. Without a
 * hardware adapter nothing is measured: wasm, as before.
 */
import type { BackendName } from '../../../shared/config';
import type { Dataset, ElectrodeData } from '../../../shared/dataset';
import type { BackendInfo } from '../../../shared/report';
import { initBackend, listBackends } from '../backends';
import { fitEncodingModel } from '../fit';
import { predictNonlocal } from '../likelihood';

/** What the choice knows of the run beyond its data. */
export interface ChoiceContext {
  /** the worker threads the CPU backend would run on */
  cpuWorkers: number;
  /** decoding spikes per block, as the run will use */
  blockSize: number;
  /** measure on a software adapter too (to check the choice where there is no hardware GPU) */
  measureSoftwareAdapter?: boolean;
}

/** One candidate's measurement. */
export interface CandidateTime {
  name: BackendName;
  /** the slice's warm fit + predict, the faster of two calls */
  warmMs: number;
  /** what that comes to per electrode of the run: the CPU's divided over its threads */
  perElectrodeMs: number;
}

/** blocks of decoding spikes in the slice: enough that a block's fixed costs are not all it measures */
const SLICE_BLOCKS = 2;

/** The largest electrode by the work of a predict (encoding × decoding spikes), with its first decoding spikes only. */
export function calibrationSlice(dataset: Dataset, blockSize: number): { slice: Dataset; electrode: ElectrodeData; decoding: number } | null {
  let best: ElectrodeData | null = null;
  for (const el of dataset.electrodes) {
    const work = el.encodingSpikeTimes.length * el.decodingSpikeTimes.length;
    if (work > 0 && (best === null || work > best.encodingSpikeTimes.length * best.decodingSpikeTimes.length)) best = el;
  }
  if (best === null) return null;
  const decoding = Math.min(best.decodingSpikeTimes.length, SLICE_BLOCKS * blockSize);
  const electrode: ElectrodeData = {
    ...best,
    decodingSpikeTimes: best.decodingSpikeTimes.subarray(0, decoding),
    decodingFeatures: best.decodingFeatures.subarray(0, decoding * best.nFeatures),
  };
  return { slice: { ...dataset, electrodes: [electrode] }, electrode, decoding };
}

/** The slice's fit and predict on the active backend: cold once, then the faster of two warm calls. */
async function timeSlice(slice: Dataset, blockSize: number): Promise<number> {
  const once = async (): Promise<number> => {
    const t0 = performance.now();
    const model = await fitEncodingModel(slice);
    try {
      // without a wait at each stage, as a decode runs: the device sums its rows and is read back once
      await predictNonlocal(model, slice, 'auto', { blockSize, stageSync: false });
    } finally {
      model.dispose();
    }
    return performance.now() - t0;
  };
  await once();
  return Math.min(await once(), await once());
}

const fmt = (ms: number): string => (ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toPrecision(2)} ms`);

/**
 * The backend `auto` gives this run, started and ready: measured where a hardware GPU could take
 * it, with the measurement in its reason.
 */
export async function initBackendFor(dataset: Dataset, ctx: ChoiceContext): Promise<BackendInfo> {
  const webgpu = (await listBackends()).find((b) => b.name === 'webgpu');
  const picked = await initBackend('auto');
  const gpuHere = picked.name === 'webgpu' && picked.isGpu;
  if (!webgpu?.available || !(gpuHere || ctx.measureSoftwareAdapter)) return picked;
  const gpuInfo = gpuHere ? picked : await initBackend('webgpu');
  const found = calibrationSlice(dataset, ctx.blockSize);
  if (found === null) return picked;
  const t0 = performance.now();
  const gpuMs = await timeSlice(found.slice, ctx.blockSize);
  const cpu = await initBackend('wasm');
  const cpuMs = await timeSlice(found.slice, ctx.blockSize);
  const threads = Math.max(1, Math.min(ctx.cpuWorkers, dataset.electrodes.length));
  const times: CandidateTime[] = [
    { name: 'webgpu', warmMs: gpuMs, perElectrodeMs: gpuMs },
    { name: 'wasm', warmMs: cpuMs, perElectrodeMs: cpuMs / threads },
  ];
  const [gpu, wasm] = times as [CandidateTime, CandidateTime];
  const measured =
    `measured on this run's largest electrode (${found.electrode.name}: ${found.electrode.encodingSpikeTimes.length} encoding, ` +
    `${found.decoding} decoding spikes, ${dataset.placeBinCenters.length / dataset.positionDims} bins) in ${fmt(performance.now() - t0)}: ` +
    `fit + predict ${fmt(gpu.warmMs)} on ${gpuInfo.device}, ${fmt(wasm.warmMs)} on one CPU thread` +
    (threads > 1 ? ` (${fmt(wasm.perElectrodeMs)} per electrode on ${threads} threads)` : '');
  if (gpu.perElectrodeMs <= wasm.perElectrodeMs) {
    const back = await initBackend('webgpu');
    return { ...back, reason: `auto: ${measured}; the GPU, ${(wasm.perElectrodeMs / gpu.perElectrodeMs).toFixed(1)}× faster`, initMs: picked.initMs + cpu.initMs + back.initMs };
  }
  const slower = `the GPU (${gpuInfo.device}) measured ${(gpu.perElectrodeMs / wasm.perElectrodeMs).toFixed(1)}× slower than the CPU for this run's shape`;
  return { ...cpu, reason: `auto: ${measured}; the CPU, as ${slower}`, warnings: [...cpu.warnings, `${slower}: auto runs it on the CPU (--backend webgpu to time the GPU anyway)`], initMs: picked.initMs + cpu.initMs };
}
