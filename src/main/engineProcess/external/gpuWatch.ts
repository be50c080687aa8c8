/**
 * GPU memory while an external engine runs, from nvidia-smi (the engine's own framework may not
 * say, and the engine process computes nothing meanwhile, so the device's used memory is the
 * engine's plus what was there before). Nothing is sampled where nvidia-smi is absent.
 */
import { gpuMemory } from '../../recorder';
import { pollEvery } from './pollEvery';

const INTERVAL_MS = 500;

export interface GpuWatch {
  /** stops sampling; the highest used bytes over every GPU seen, undefined when none answered */
  stop(): number | undefined;
}

export function watchGpuMemory(onSample: (usedBytes: number) => void): GpuWatch {
  let peak: number | undefined;
  const stop = pollEvery(INTERVAL_MS, gpuMemory, (gpus) => {
    const used = gpus.reduce((s, g) => s + g.usedBytes, 0);
    peak = Math.max(peak ?? 0, used);
    onSample(used);
  });
  return {
    stop: () => {
      stop();
      return peak;
    },
  };
}
