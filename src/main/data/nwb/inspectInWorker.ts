/**
 * Runs an NWB inspection, or the mapping step's scan, in a worker thread, so a large file never
 * blocks the service's event loop (h5wasm reads are synchronous).
 * The worker is ended after a time limit, or when the process grows by more than a memory budget
 * while it runs (h5wasm's memory is WebAssembly's, which no heap limit of the worker covers): a
 * pathological file must not hang the app or take the machine's memory. Where the worker entry is
 * missing (a bundle built without it) the inspection runs in-process instead.
 */
import { existsSync } from 'node:fs';
import { totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { DataPreview, ValidationFinding } from '../../../shared/api';
import type { DatasetSummary } from '../../../shared/dataset';
import { AppError, deserializeError, type SerializedError } from '../../../shared/errors';
import { moduleWorkerEntry, startModuleWorker } from '../../workers';
import { inspectForUi } from './inspectSummary';
import type { NwbRecipe } from './recipe';
import type { NwbScan } from './scanTypes';
import { scanForMapping, type NwbMappingScan } from './scanView';

export interface NwbWorkerRequest {
  paths: string[];
  recipe?: NwbRecipe;
}

/** What the worker is asked: an inspection (summary, preview, findings) or the mapping step's scan. */
export type NwbWorkerTask = { task: 'inspect'; request: NwbWorkerRequest } | { task: 'scan'; paths: string[] };

export interface NwbWorkerResult {
  ok: true;
  summary: DatasetSummary | null;
  preview: DataPreview | null;
  findings: ValidationFinding[];
  scans: NwbScan[];
  recipe: NwbRecipe | null;
}

export type NwbWorkerReply = { ok: true; value: NwbWorkerResult | NwbMappingScan } | { ok: false; error: SerializedError };

const INSPECT_TIMEOUT_MS = 5 * 60 * 1000;
/** how much the process may grow while a worker inspects: 4 GiB, or half the machine's memory where that is less */
export const INSPECT_MEMORY_BYTES = Math.min(4 * 2 ** 30, Math.floor(totalmem() / 2));
const MEMORY_POLL_MS = 50;

export interface WorkerLimits {
  timeoutMs: number;
  memoryBytes: number;
}

function inWorker<T>(task: NwbWorkerTask, { timeoutMs, memoryBytes }: WorkerLimits): Promise<T> {
  const paths = task.task === 'scan' ? task.paths : task.request.paths;
  return new Promise((resolve, reject) => {
    const baseline = process.memoryUsage.rss();
    const worker = startModuleWorker(moduleWorkerEntry(import.meta.url, 'scanWorker'), task);
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(memoryWatch);
      fn();
      void worker.terminate();
    };
    const files = paths.join(', ');
    const timer = setTimeout(() => finish(() => reject(new AppError('E090',
      `${files}: inspecting the file took longer than ${timeoutMs / 1000} s and was stopped; the file may be corrupt.`,
      { file: paths[0] }))), timeoutMs);
    const memoryWatch = setInterval(() => {
      const grown = process.memoryUsage.rss() - baseline;
      if (grown <= memoryBytes) return;
      finish(() => reject(new AppError('E090',
        `${files}: inspecting the file took more than ${(memoryBytes / 2 ** 20).toFixed(0)} MiB of memory and was stopped; ` +
        'the file may declare datasets far larger than it holds: check it with h5ls, or export the recording as clusterless-npz.',
        { file: paths[0] })));
    }, MEMORY_POLL_MS);
    worker.on('message', (reply: NwbWorkerReply) => finish(() => (reply.ok ? resolve(reply.value as T) : reject(deserializeError(reply.error)))));
    worker.on('error', (e) => finish(() => reject(new AppError('INTERNAL', `NWB inspection failed: ${e.message}`))));
    worker.on('exit', (code) => finish(() => reject(new AppError('INTERNAL', `NWB inspection worker exited (code ${code}) without a result.`))));
  });
}

function workerExists(): boolean {
  return existsSync(fileURLToPath(moduleWorkerEntry(import.meta.url, 'scanWorker')));
}

/** Inspects NWB files off the event loop; throws AppError only for failures of the machinery itself. */
export async function inspectNwbInWorker(
  paths: string[], recipe?: NwbRecipe, timeoutMs = INSPECT_TIMEOUT_MS, memoryBytes = INSPECT_MEMORY_BYTES,
): Promise<NwbWorkerResult> {
  const request: NwbWorkerRequest = recipe ? { paths, recipe } : { paths };
  return workerExists() ? inWorker({ task: 'inspect', request }, { timeoutMs, memoryBytes }) : inspectForUi(request);
}

/** The mapping step's scan of NWB files off the event loop, under the same limits; throws AppError when a file cannot be opened. */
export async function scanNwbInWorker(paths: string[], limits: WorkerLimits = { timeoutMs: INSPECT_TIMEOUT_MS, memoryBytes: INSPECT_MEMORY_BYTES }): Promise<NwbMappingScan> {
  return workerExists() ? inWorker({ task: 'scan', paths }, limits) : scanForMapping(paths);
}
