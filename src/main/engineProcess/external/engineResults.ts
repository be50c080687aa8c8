/**
 * What an external engine hands back, read and checked against the run's grid: its non-local
 * likelihood (time rows × interior place bins), or, for an engine that decodes the whole model, its
 * acausal posterior (time rows × the model's state bins, the profiler's own column order). Either
 * is a plain .npy file in the engine's folder; a file of another shape or kind fails the engine.
 */
import { join } from 'node:path';
import type { PosteriorModel } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import { engineModelOf } from '../../../shared/externalEngines';
import { parseNpy, readUntrustedFile } from '../../data';
import { placeGridOf } from '../posterior';
import { resultFailure } from './externalFailures';
import type { ExternalRecord } from './externalRecord';

export const NONLOCAL_RESULT = 'log_likelihood_nonlocal';
export const POSTERIOR_RESULT = 'acausal_posterior';

/** What the engine decoded: a likelihood for the agreement matrix, a posterior for the run's own to be compared with. */
export interface EngineOutputs {
  likelihood?: Float64Array;
  posterior?: { model: PosteriorModel; values: Float64Array; file: string };
}

export interface ResultInputs {
  name: string;
  dataset: Dataset;
  /** the model the run decodes, when it decodes one */
  model: PosteriorModel | undefined;
  record: ExternalRecord;
  outDir: string;
}

/** Columns of a model's posterior: one per state bin of the grid the run's own posterior decodes on, posterior-spec §3. */
export function stateBinsOf(model: PosteriorModel, dataset: Dataset): number {
  // bins, not coordinates: a 2-D grid's centres hold two numbers a bin
  const bins = placeGridOf(dataset).interior.length;
  // the detector's Local and No-Spike are one bin each, its two non-local states the whole grid
  return model === 'decoder' ? bins : 2 + 2 * bins;
}

/** Reads a result as a (rows, cols) float array, or the AppError that fails the engine. */
async function readResult(outDir: string, file: string, rows: number, cols: number, what: string): Promise<Float64Array | AppError> {
  const path = join(outDir, file);
  try {
    const bytes = await readUntrustedFile(path, { maxBytes: rows * cols * 8 + 64 * 1024, within: outDir });
    const array = parseNpy(bytes, { file: path, key: file }, true);
    if (!(array.data instanceof Float64Array) || array.dtype.kind !== 'float') return resultFailure(`${file} holds ${array.dtype.kind} values; a float32 or float64 array is expected`);
    if (array.shape.length !== 2 || array.shape[0] !== rows || array.shape[1] !== cols) {
      return resultFailure(`${file} has shape (${array.shape.join(', ')}); the data's grid is (${rows}, ${cols}) (${what})`);
    }
    return array.data;
  } catch (e) {
    return resultFailure(`its result ${file} cannot be read: ${(e as Error).message}`);
  }
}

/** The engine's outputs, or the AppError that fails it: an engine that decodes a model must send its posterior, any other its likelihood or a posterior. */
export async function readEngineOutputs({ name, dataset, model, record, outDir }: ResultInputs): Promise<EngineOutputs | AppError> {
  const nTime = dataset.time.length;
  const out: EngineOutputs = {};
  const likelihood = record.results.get(NONLOCAL_RESULT);
  if (likelihood) {
    const read = await readResult(outDir, likelihood.file, nTime, dataset.placeBinCenters.length / dataset.positionDims, 'time rows, place bins');
    if (read instanceof AppError) return read;
    out.likelihood = read;
  }
  const posterior = record.results.get(POSTERIOR_RESULT);
  if (posterior && model) {
    const read = await readResult(outDir, posterior.file, nTime, stateBinsOf(model, dataset), `time rows, the ${model}'s state bins`);
    if (read instanceof AppError) return read;
    out.posterior = { model, values: read, file: posterior.file };
  }
  if (engineModelOf(name) && !out.posterior) return resultFailure(`finished without an '${POSTERIOR_RESULT}' result`);
  if (!out.likelihood && !out.posterior) {
    return resultFailure(model
      ? `finished without a '${NONLOCAL_RESULT}' or '${POSTERIOR_RESULT}' result`
      : `finished without a '${NONLOCAL_RESULT}' result`);
  }
  return out;
}
