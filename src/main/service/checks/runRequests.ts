/**
 * The checks a run request passes before it is queued: its data file readable (a regular file,
 * never a pipe the engine would wait on), and for a decode run the config a decode needs.
 */
import { checkPosteriorParameters } from '../../../shared/posteriorParameters';
import { resolve } from 'node:path';
import { POSTERIOR_METHODS, POSTERIOR_MODELS, type PosteriorMethod, type PosteriorModel, type RunConfig } from '../../../shared/config';
import { AppError } from '../../../shared/errors';
import { isCommandEngine } from '../../../shared/externalEngines';
import { regularFileStats } from '../../data';
import type { DecodeRequest } from '../../engineProtocol';
import { runConfig } from '../validate';

const MAX_ROWS_PER_CHUNK = 1_000_000_000;
/** parseRunConfig's limit on a label */
const MAX_LABEL_CHARS = 200;

/**
 * A `cmd:` engine runs a program of the caller's choosing, and `enginePython` picks an interpreter:
 * both are the command line's (whoever types them can run programs anyway), never a page's, whose
 * requests arrive over IPC or a WebSocket.
 */
function refuseCommands(config: RunConfig): void {
  const command = config.engines?.find(isCommandEngine);
  if (command !== undefined) {
    throw new AppError('BAD_ARGUMENT', `run config 'engines': ${JSON.stringify(command.slice(0, 60))} runs a command, which only the command line may start; use kde-profiler run --engine 'cmd:…'`, { key: 'engines' });
  }
  if (config.enginePython !== undefined) {
    throw new AppError('BAD_ARGUMENT', "run config 'enginePython': the engines' Python is chosen on the command line (--python) or by KDE_PROFILER_PYTHON where the app starts", { key: 'enginePython' });
  }
}

/**
 * A run config whose data file is given by an absolute path and is a regular file (never a pipe
 * the engine would wait on); commands refused unless the caller is the command line.
 */
export async function withReadableData(raw: unknown, commandsAllowed = false): Promise<RunConfig> {
  const config = runConfig(raw);
  if (!commandsAllowed) refuseCommands(config);
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
  if (config.engines) {
    throw new AppError('BAD_ARGUMENT', "run config 'engines': a decode run decodes with the engine alone; profile external engines with kde-profiler run --engine", { key: 'engines' });
  }
  const rows = decode.rowsPerChunk;
  if (!Number.isInteger(rows) || rows < 2 || rows > MAX_ROWS_PER_CHUNK) {
    throw new AppError('BAD_ARGUMENT', `decode 'rowsPerChunk': expected an integer in [2, ${MAX_ROWS_PER_CHUNK}], got ${JSON.stringify(rows)}`, { key: 'rowsPerChunk' });
  }
  const posterior = decode.posterior ? `, ${decode.posterior.model} posterior (${decode.posterior.method})` : '';
  const kind = `decode ${config.strategies[0]}, ${rows} rows per window${posterior}`;
  const label = (config.label === undefined ? kind : `${kind}: ${config.label}`).slice(0, MAX_LABEL_CHARS);
  return { ...config, repeats: 1, warmup: 0, local: false, saveLikelihood: true, label };
}

/** The decode request as the engine gets it: checked, and nothing else carried along. */
export function decodeRequestOf(decode: DecodeRequest): DecodeRequest {
  const p: unknown = decode.posterior;
  if (p === undefined) return { rowsPerChunk: decode.rowsPerChunk };
  const { model, method, parameters } = (typeof p === 'object' && p !== null ? p : {}) as Record<string, unknown>;
  if (!(POSTERIOR_MODELS as readonly unknown[]).includes(model)) {
    throw new AppError('BAD_ARGUMENT', `decode 'posterior.model': expected one of ${POSTERIOR_MODELS.join(', ')}, got ${JSON.stringify(model)}`, { key: 'posterior' });
  }
  if (!(POSTERIOR_METHODS as readonly unknown[]).includes(method)) {
    throw new AppError('BAD_ARGUMENT', `decode 'posterior.method': expected one of ${POSTERIOR_METHODS.join(', ')}, got ${JSON.stringify(method)}`, { key: 'posterior' });
  }
  const checked = checkPosteriorParameters(parameters, model as PosteriorModel);
  const posterior = { model: model as PosteriorModel, method: method as PosteriorMethod, ...(Object.keys(checked).length > 0 ? { parameters: checked } : {}) };
  return { rowsPerChunk: decode.rowsPerChunk, posterior };
}
