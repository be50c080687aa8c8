/**
 * Runs an NWB inspection in a worker thread, so a large file never blocks the service's event loop.
 * The worker is ended after a time limit (a pathological file must not hang the app); where the
 * worker entry is missing (a bundle built without it) the inspection runs in-process instead.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DataPreview, ValidationFinding } from '../../../shared/api';
import type { DatasetSummary } from '../../../shared/dataset';
import { AppError, deserializeError, type SerializedError } from '../../../shared/errors';
import { moduleWorkerEntry, startModuleWorker } from '../../workers';
import { inspectForUi } from './inspectSummary';
import type { NwbRecipe } from './recipe';
import type { NwbScan } from './scanTypes';

export interface NwbWorkerRequest {
  paths: string[];
  recipe?: NwbRecipe;
}

export type NwbWorkerReply =
  | { ok: true; summary: DatasetSummary | null; preview: DataPreview | null; findings: ValidationFinding[]; scans: NwbScan[]; recipe: NwbRecipe | null }
  | { ok: false; error: SerializedError };

export type NwbWorkerResult = Extract<NwbWorkerReply, { ok: true }>;

const INSPECT_TIMEOUT_MS = 5 * 60 * 1000;

function inWorker(req: NwbWorkerRequest, timeoutMs: number): Promise<NwbWorkerResult> {
  return new Promise((resolve, reject) => {
    const worker = startModuleWorker(moduleWorkerEntry(import.meta.url, 'scanWorker'), req);
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => finish(() => reject(new AppError('E090',
      `${req.paths.join(', ')}: inspecting the file took longer than ${timeoutMs / 1000} s and was stopped; the file may be corrupt.`,
      { file: req.paths[0] }))), timeoutMs);
    worker.on('message', (reply: NwbWorkerReply) => finish(() => (reply.ok ? resolve(reply) : reject(deserializeError(reply.error)))));
    worker.on('error', (e) => finish(() => reject(new AppError('INTERNAL', `NWB inspection failed: ${e.message}`))));
    worker.on('exit', (code) => finish(() => reject(new AppError('INTERNAL', `NWB inspection worker exited (code ${code}) without a result.`))));
  });
}

/** Inspects NWB files off the event loop; throws AppError only for failures of the machinery itself. */
export async function inspectNwbInWorker(paths: string[], recipe?: NwbRecipe, timeoutMs = INSPECT_TIMEOUT_MS): Promise<NwbWorkerResult> {
  const req: NwbWorkerRequest = recipe ? { paths, recipe } : { paths };
  return existsSync(fileURLToPath(moduleWorkerEntry(import.meta.url, 'scanWorker'))) ? inWorker(req, timeoutMs) : inspectForUi(req);
}
