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
