/**
 * Worker-thread entry: inspects an NWB import, or scans it for the mapping step, away from the
 * caller's event loop (h5wasm reads are synchronous) and posts back only what the UI needs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serializeError } from '../../../shared/errors';
import { inspectForUi } from './inspectSummary';
import type { NwbWorkerReply, NwbWorkerTask } from './inspectInWorker';
import { scanForMapping } from './scanView';

async function run(task: NwbWorkerTask): Promise<NwbWorkerReply> {
  try {
    return { ok: true, value: task.task === 'scan' ? await scanForMapping(task.paths) : await inspectForUi(task.request) };
  } catch (e) {
    return { ok: false, error: serializeError(e) };
  }
}

parentPort?.postMessage(await run(workerData as NwbWorkerTask));
