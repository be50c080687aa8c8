/**
 * Dataset summaries the service has already seen, so a memory estimate (asked again on every
 * change in Run setup) never reloads the data: inspectData leaves its summary here, and a miss
 * loads the data once for its summary only.
 *
 * A preset is known by its name and generator options; a file by its path, size and modification
 * time (and, for NWB, those of its recipe and of the files the recipe names), so a file changed on
 * disk is summarized again.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { DataInspection } from '../../../shared/api';
import type { DataSource } from '../../../shared/config';
import { summarizeDataset, type DatasetSummary } from '../../../shared/dataset';
import { AppError, type ErrorCode } from '../../../shared/errors';
import { inspectData, isNwbSource, loadDataset, nwbRequest, recipePathFor } from '../../data';

const MAX_SUMMARIES = 16;

async function fileStamp(path: string): Promise<[string, number, number] | [string]> {
  try {
    const s = await stat(path);
    return [path, s.size, s.mtimeMs];
  } catch {
    return [path];
  }
}

/** What identifies the data a source stands for; undefined when that cannot be told (the load then says why). */
async function sourceKey(source: DataSource): Promise<string | undefined> {
  if (source.kind === 'preset') return JSON.stringify(['preset', source.name, source.seed, source.features, source.featureScale]);
  const path = resolve(source.path);
  const files = [path];
  if (isNwbSource(path)) {
    try {
      files.push(recipePathFor(path), ...(await nwbRequest(path)).paths.map((p) => resolve(p)));
    } catch {
      return undefined;
    }
  }
  return JSON.stringify(['file', ...(await Promise.all(files.map(fileStamp)))]);
}

/**
 * A summary read fresh: an NWB import through its inspection, which reads it in a worker (h5wasm
 * blocks the thread it runs on), failing as that inspection's first error says; anything else loaded.
 */
async function loadSummary(source: DataSource): Promise<DatasetSummary> {
  if (source.kind !== 'file' || !isNwbSource(resolve(source.path))) return summarizeDataset(await loadDataset(source));
  const inspection = await inspectData(source);
  if (inspection.summary) return inspection.summary;
  const error = inspection.findings.find((f) => f.severity === 'error');
  // a finding's code is one of the loaders' error codes, which loadDataset would have thrown
  throw new AppError((error?.code ?? 'BAD_ARGUMENT') as ErrorCode, error?.message ?? `${source.path}: no recording could be read from it`, { file: source.path });
}

export class DatasetSummaryCache {
  private readonly summaries = new Map<string, Promise<DatasetSummary>>();

  /** Inspects the source the way inspectData does, keeping its summary for later estimates. */
  async inspect(source: DataSource): Promise<DataInspection> {
    const key = await sourceKey(source);
    const inspection = await inspectData(source);
    if (key !== undefined && inspection.summary) this.remember(key, Promise.resolve(inspection.summary));
    return inspection;
  }

  /** The source's summary: the one seen before, or a load summarized once (a failed load throws as loadDataset does). */
  async summaryOf(source: DataSource): Promise<DatasetSummary> {
    const key = await sourceKey(source);
    if (key === undefined) return loadSummary(source);
    const known = this.summaries.get(key);
    if (known) {
      this.remember(key, known);
      return known;
    }
    const loading = loadSummary(source);
    this.remember(key, loading);
    // a failure is not kept: the next estimate tries again
    loading.catch(() => {
      if (this.summaries.get(key) === loading) this.summaries.delete(key);
    });
    return loading;
  }

  private remember(key: string, summary: Promise<DatasetSummary>): void {
    this.summaries.delete(key);
    this.summaries.set(key, summary);
    while (this.summaries.size > MAX_SUMMARIES) this.summaries.delete(this.summaries.keys().next().value!);
  }
}
