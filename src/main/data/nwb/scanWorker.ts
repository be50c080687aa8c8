/**
 * Worker-thread entry: inspects an NWB import away from the caller's event loop (h5wasm reads are
 * synchronous) and posts back only what the UI needs — summary, findings, preview, scan, recipe.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serializeError } from '../../../shared/errors';
import { inspectForUi } from './inspectSummary';
import type { NwbWorkerRequest, NwbWorkerReply } from './inspectInWorker';

async function run(req: NwbWorkerRequest): Promise<NwbWorkerReply> {
  try {
    return await inspectForUi(req);
  } catch (e) {
    return { ok: false, error: serializeError(e) };
  }
}

parentPort?.postMessage(await run(workerData as NwbWorkerRequest));
