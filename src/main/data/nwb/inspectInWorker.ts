/**
 * Runs an NWB inspection in a worker thread, so a large file never blocks the service's event loop.
 * The worker is ended after a time limit (a pathological file must not hang the app); where the
 * worker entry is missing (a bundle built without it) the inspection runs in-process instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DataPreview, ValidationFinding } from '../../../shared/api';
import type { DatasetSummary } from '../../../shared/dataset';
import { AppError, deserializeError, type SerializedError } from '../../../shared/errors';
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

const RUNNING_TS = import.meta.url.endsWith('.ts');

/** beside this module from source; in the Electron bundle this code sits in out/main/chunks/ and the
 *  worker entry in out/main/ */
function workerEntry(): URL {
  if (RUNNING_TS) return new URL('./scanWorker.ts', import.meta.url);
  const here = new URL('./scanWorker.js', import.meta.url);
  const parent = new URL('../scanWorker.js', import.meta.url);
  return existsSync(fileURLToPath(here)) ? here : parent;
}

/** tsx's ESM API, resolved through its package exports so the worker can load TypeScript */
function tsxApiUrl(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(pkgPath), pkg.exports['./esm/api']!.import.default)).href;
}

/** Under tsx (sources run as .ts) a worker does not inherit the loader: it registers it first. */
function startWorker(req: NwbWorkerRequest): Worker {
  if (!RUNNING_TS) return new Worker(fileURLToPath(workerEntry()), { workerData: req });
  const code = `import(${JSON.stringify(tsxApiUrl())}).then((m) => { m.register(); return import(${JSON.stringify(workerEntry().href)}); })`;
  return new Worker(code, { eval: true, workerData: req });
}

function inWorker(req: NwbWorkerRequest, timeoutMs: number): Promise<NwbWorkerResult> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(req);
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
  return existsSync(fileURLToPath(workerEntry())) ? inWorker(req, timeoutMs) : inspectForUi(req);
}
