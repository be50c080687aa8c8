/**
 * The checks a run request passes before it is queued: its data file readable (a regular file,
 * never a pipe the engine would wait on), and for a decode run the config a decode needs.
 */
import { resolve } from 'node:path';
import type { RunConfig } from '../../shared/config';
import { AppError } from '../../shared/errors';
import { regularFileStats } from '../data';
import type { DecodeRequest } from '../engineProtocol';
import { runConfig } from './validate';

const MAX_ROWS_PER_CHUNK = 1_000_000_000;
/** parseRunConfig's limit on a label */
const MAX_LABEL_CHARS = 200;

/** A run config whose data file is given by an absolute path and is a regular file (never a pipe the engine would wait on). */
export async function withReadableData(raw: unknown): Promise<RunConfig> {
  const config = runConfig(raw);
  if (config.data.kind !== 'file') return config;
  const path = resolve(config.data.path);
  await regularFileStats(path);
  return { ...config, data: { kind: 'file', path } };
}

/**
 * What a decode run is, said in its config: one strategy, one fit and one decode (no warm-ups or
 * repeats), the likelihood kept; and in its label, so the run list tells it from a profiling run.
 */
export function decodeConfig(config: RunConfig, decode: DecodeRequest): RunConfig {
  if (config.strategies.length !== 1) {
    throw new AppError('BAD_ARGUMENT', `run config 'strategies': a decode run takes one strategy (or auto), got ${config.strategies.join(', ')}`, { key: 'strategies' });
  }
  const rows = decode.rowsPerChunk;
  if (!Number.isInteger(rows) || rows < 2 || rows > MAX_ROWS_PER_CHUNK) {
    throw new AppError('BAD_ARGUMENT', `decode 'rowsPerChunk': expected an integer in [2, ${MAX_ROWS_PER_CHUNK}], got ${JSON.stringify(rows)}`, { key: 'rowsPerChunk' });
  }
  const kind = `decode ${config.strategies[0]}, ${rows} rows per window`;
  const label = (config.label === undefined ? kind : `${kind}: ${config.label}`).slice(0, MAX_LABEL_CHARS);
  return { ...config, repeats: 1, warmup: 0, local: false, saveLikelihood: true, label };
}
