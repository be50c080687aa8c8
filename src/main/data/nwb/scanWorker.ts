/**
 * Worker-thread entry: inspects an NWB import away from the caller's event loop (h5wasm reads are
 * synchronous) and posts back only what the UI needs — summary, findings, preview, scan, recipe.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { summarizeDataset } from '../../../shared/dataset';
import { serializeError } from '../../../shared/errors';
import { previewDataset } from '../preview';
import { inspectNwb } from './loadNwb';
import type { NwbWorkerRequest, NwbWorkerReply } from './inspectInWorker';

async function run(req: NwbWorkerRequest): Promise<NwbWorkerReply> {
  try {
    const r = await inspectNwb(req.paths, req.recipe);
    return {
      ok: true,
      summary: r.dataset ? summarizeDataset(r.dataset) : null,
      preview: r.dataset ? previewDataset(r.dataset) : null,
      findings: r.findings,
      scans: r.scans,
      recipe: r.recipe,
    };
  } catch (e) {
    return { ok: false, error: serializeError(e) };
  }
}

parentPort?.postMessage(await run(workerData as NwbWorkerRequest));
