import { availableParallelism } from 'node:os';
import type { BackendInfo } from '../../../shared/report';

/**
 * How many engine workers a run gets: what the run asked for, else one per core on the CPU
 * backends that compute on one thread each (wasm, cpu), else one — a GPU is one device, and the
 * tensorflow backend spreads its own work over the cores (and must not load in worker threads).
 */
export function workerCount(requested: number | undefined, backend: Pick<BackendInfo, 'name'>): number {
  if (requested !== undefined) return requested;
  return backend.name === 'wasm' || backend.name === 'cpu' ? availableParallelism() : 1;
}

/**
 * The workers a run starts, checked before they start: no more than its electrodes (the pool
 * spreads electrodes, so another worker would idle) nor than the cores (each worker is a thread
 * with its own backend and copy of the model: more only share the cores and multiply the memory).
 * Asking for more gets the limit and a sentence saying why.
 */
export function runWorkers(
  requested: number | undefined, backend: Pick<BackendInfo, 'name'>, nElectrodes: number, cores = availableParallelism(),
): { workers: number; clamped?: string } {
  const wanted = workerCount(requested, backend);
  const limit = Math.max(1, Math.min(nElectrodes, cores));
  if (wanted <= limit) return { workers: wanted };
  if (requested === undefined) return { workers: limit };
  const why = nElectrodes < cores ? `the data has ${nElectrodes} electrode${nElectrodes === 1 ? '' : 's'}` : `this machine has ${cores} core${cores === 1 ? '' : 's'}`;
  return {
    workers: limit,
    clamped: `--workers ${requested}: ${why}, so the run uses ${limit} worker${limit === 1 ? '' : 's'} (more would only share ${nElectrodes < cores ? 'the electrodes' : 'the cores'}, each with its own backend and copy of the model)`,
  };
}
