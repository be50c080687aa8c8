import type { StrategyChoice, StrategyName } from '../../../shared/config';
import { resolveAutoStrategy } from './memoryModel';
import type { ProblemSizes, StrategyOptions } from './types';

/** What one electrode runs, with the tiles `auto` chose for it (none for a named strategy). */
export interface TileChoice {
  strategy: StrategyName;
  encTileSize?: number;
  posTileSize?: number;
}

/** The named strategy, or what `auto` picks for this electrode's sizes (spec §7.7 with the budget). */
export function electrodeStrategy(strategy: StrategyChoice, sizes: ProblemSizes, options: StrategyOptions): TileChoice {
  return strategy === 'auto' ? resolveAutoStrategy(sizes, options) : { strategy };
}
