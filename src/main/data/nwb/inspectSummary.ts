/**
 * What an NWB inspection sends to the UI — summary, findings, preview, scan, recipe — computed the
 * same way in the worker thread and in-process.
 */
import { summarizeDataset } from '../../../shared/dataset';
import { previewDataset } from '../dataset';
import type { NwbWorkerRequest, NwbWorkerResult } from './inspectInWorker';
import { inspectNwb } from './loadNwb';

export async function inspectForUi(req: NwbWorkerRequest): Promise<NwbWorkerResult> {
  const r = await inspectNwb(req.paths, req.recipe);
  return {
    ok: true,
    summary: r.dataset ? summarizeDataset(r.dataset) : null,
    preview: r.dataset ? previewDataset(r.dataset) : null,
    findings: r.findings,
    scans: r.scans,
    recipe: r.recipe,
  };
}
