import { isDispatch, type StrategyChoice, type StrategyName } from '../../../shared/config';
import { resolveFastestStrategy, type SeriesReach } from './autoDispatch';
import { resolveNldDispatch } from './memoryModel';
import type { ProblemSizes, StrategyOptions } from './types';

/** What one electrode runs, with the tiles a dispatch chose for it (none for a named strategy) and why. */
export interface TileChoice {
  strategy: StrategyName;
  encTileSize?: number;
  posTileSize?: number;
  /** a dispatch's reason for its choice */
  reason?: string;
}

/**
 * The named strategy, or what a dispatch picks for this electrode: `nld-dispatch` by sizes (spec
 * §7.7 with the budget), `auto` by the calibrated cost model, with series among the candidates
 * where the engine planned it (`reach`); without a plan `auto` cannot judge series and leaves it out.
 */
export function electrodeStrategy(strategy: StrategyChoice, sizes: ProblemSizes, options: StrategyOptions, reach?: SeriesReach): TileChoice {
  if (!isDispatch(strategy)) return { strategy };
  const choice = strategy === 'auto' ? resolveFastestStrategy(sizes, options, reach) : resolveNldDispatch(sizes, options);
  return { strategy: choice.strategy, encTileSize: choice.encTileSize, posTileSize: choice.posTileSize, reason: choice.reason };
}
