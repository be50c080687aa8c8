/**
 * The state-space model's parameters a lab changes (posterior-spec §4–§8): the random walk's
 * movement variance, the No-Spike state's rate, and the discrete transition between states. Absent
 * ones take non_local_detector's defaults. Checked here once for the CLI and the service, each
 * refusal naming the flag or key.
 */
import type { PosteriorModel } from './config';
import { AppError } from './errors';

export interface PosteriorParameters {
  /** the random walk's variance, position units² (default 6: σ ≈ 2.45) */
  movementVar?: number;
  /** spikes per second the No-Spike state allows (default 1e-10) */
  noSpikeRate?: number;
  /** S × S, rows from and columns to, in the model's state order; each row sums to 1 */
  discreteTransition?: number[][];
  /**
   * the detector's Local state over every place bin, with a Gaussian kernel of this std (position
   * units) around the animal, 0 for all mass in the animal's bin (NLD's local_position_std); absent:
   * the Local state is one bin at the animal's exact position
   */
  localPositionStd?: number;
}

/**
 * Whether the model's Local state is one bin at the animal (the detector without a position std),
 * whose likelihood is its own pass over the spikes; the multi-bin Local state reads the non-local
 * likelihood through a kernel instead, and the decoder has no Local state.
 */
export function hasOneBinLocal(model: PosteriorModel, parameters: PosteriorParameters | undefined): boolean {
  return model === 'detector' && parameters?.localPositionStd === undefined;
}

/** States per model, in NLD's order: the discrete transition is this many rows and columns. */
export const MODEL_STATE_COUNT: Record<PosteriorModel, number> = { decoder: 1, detector: 4 };

function positive(v: unknown, key: string, flag: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
    throw new AppError('BAD_ARGUMENT', `${flag}: expected a positive number, got ${JSON.stringify(v)}`, { key });
  }
  return v;
}

function localStd(v: unknown, model: PosteriorModel): number {
  if (model !== 'detector') {
    throw new AppError('BAD_ARGUMENT', '--local-position-std: only the detector has a Local state; drop it or decode with --model detector', { key: 'posterior.localPositionStd' });
  }
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new AppError('BAD_ARGUMENT', `--local-position-std: expected a number ≥ 0 in position units (0: the animal's bin only), got ${JSON.stringify(v)}`, { key: 'posterior.localPositionStd' });
  }
  return v;
}

function transitionMatrix(v: unknown, model: PosteriorModel): number[][] {
  const n = MODEL_STATE_COUNT[model];
  const shape = `a ${n} × ${n} array of rows (from) of probabilities (to) summing to 1, in the ${model}'s state order`;
  const refuse = (why: string) => new AppError('BAD_ARGUMENT', `--discrete-transition: expected ${shape}; ${why}`, { key: 'posterior.discreteTransition' });
  if (!Array.isArray(v) || v.length !== n) throw refuse(`got ${Array.isArray(v) ? `${v.length} rows` : JSON.stringify(v)?.slice(0, 80)}`);
  return v.map((row: unknown, i) => {
    if (!Array.isArray(row) || row.length !== n || row.some((x) => typeof x !== 'number' || !Number.isFinite(x) || x < 0)) {
      throw refuse(`row ${i} is ${JSON.stringify(row)?.slice(0, 80)}`);
    }
    const sum = (row as number[]).reduce((a, b) => a + b, 0);
    if (Math.abs(sum - 1) > 1e-9) throw refuse(`row ${i} sums to ${sum}`);
    return row as number[];
  });
}

/** The parameters, checked against the model; the keys a caller did not give stay absent. */
export function checkPosteriorParameters(v: unknown, model: PosteriorModel): PosteriorParameters {
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new AppError('BAD_ARGUMENT', 'posterior parameters: expected { movementVar?, noSpikeRate?, discreteTransition?, localPositionStd? }', { key: 'posterior.parameters' });
  }
  const p = v as Record<string, unknown>;
  const unknown = Object.keys(p).filter((k) => !['movementVar', 'noSpikeRate', 'discreteTransition', 'localPositionStd'].includes(k));
  if (unknown.length > 0) {
    throw new AppError('BAD_ARGUMENT', `posterior parameters: unknown ${unknown.join(', ')}; expected movementVar, noSpikeRate, discreteTransition, localPositionStd`, { key: 'posterior.parameters' });
  }
  const out: PosteriorParameters = {};
  if (p.movementVar !== undefined) out.movementVar = positive(p.movementVar, 'posterior.movementVar', '--movement-var');
  if (p.noSpikeRate !== undefined) out.noSpikeRate = positive(p.noSpikeRate, 'posterior.noSpikeRate', '--no-spike-rate');
  if (p.discreteTransition !== undefined) out.discreteTransition = transitionMatrix(p.discreteTransition, model);
  if (p.localPositionStd !== undefined) out.localPositionStd = localStd(p.localPositionStd, model);
  return out;
}
