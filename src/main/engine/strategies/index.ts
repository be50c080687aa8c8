/**
 * The six evaluation strategies of kde-spec §7 and the engine's own `series` (series/), by name. Each computes the same
 * floored spike terms; they differ in where the sum over encoding spikes happens and how it is tiled. A strategy may
 * have a say in what the fit keeps for it (Strategy.fitKeep, fitKeepFor).
 * Imports tfjs and the engine's own modules only; computes through engine/ops, never engine/simd or engine/backends,
 * and never asks which backend is active.
 */
import type { StrategyName } from '../../../shared/config';
import { chunked } from './chunked';
import { compensated } from './compensated';
import { logsumexp, logsumexpTiled } from './logsumexp';
import { reference } from './reference';
import { series } from './series';
export { seriesReach } from './series';
import type { FitKeep, FitElectrode } from './types';
import { streaming } from './streaming';
import type { Strategy } from './types';

export const STRATEGY_IMPLS: Record<StrategyName, Strategy> = {
  reference,
  logsumexp,
  'logsumexp-tiled': logsumexpTiled,
  chunked,
  compensated,
  streaming,
  series,
};

/** The fit hook of the strategy whose predicts follow a fit, if it has one (Strategy.fitKeep). */
export function fitKeepFor(name: StrategyName): ((electrode: FitElectrode) => FitKeep) | undefined {
  return STRATEGY_IMPLS[name].fitKeep;
}

export { KEEP_THE_KERNEL } from './types';
export type { ElectrodeContext, EmitBlock, FitElectrode, FitKeep, KeptFactor, StageFn, StageTools, Strategy } from './types';
