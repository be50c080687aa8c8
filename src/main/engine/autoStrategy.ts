/**
 * `auto`: the spec's dispatch (kde-spec §7.7) with a memory budget. Compensated for D ≤ 8
 * (chunked e′ when the E·P factor does not fit), logsumexp above (position-tiled, then
 * streaming, as the (B·E·P) temporary and then the E·P kernel outgrow the budget).
 */
import type { StrategyName } from '../../shared/config';
import { COMPENSATED_MAX_FEATURES } from './constants';
import type { ElectrodeSizes, StrategyOptions } from './types';

export const DEFAULT_MEMORY_BUDGET_BYTES = 1 << 30;
const F32 = 4;

export interface AutoChoice {
  strategy: StrategyName;
  encTileSize?: number;
  posTileSize?: number;
  reason: string;
}

export function resolveAuto(s: ElectrodeSizes, o: StrategyOptions): AutoChoice {
  const budget = o.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  const B = Math.min(o.blockSize, Math.max(s.nDec, 1));
  const E = s.nEnc;
  const P = s.nBins;
  const kposBytes = E * P * F32;
  if (s.nFeatures <= COMPENSATED_MAX_FEATURES && E > 0) {
    if (kposBytes + (E * B + B * P) * F32 <= budget) {
      return { strategy: 'compensated', reason: `D = ${s.nFeatures} ≤ 8: compensated matmul (E·P = ${E}·${P} fits)` };
    }
    const tile = Math.max(1, Math.floor(budget / F32 / (2 * P + B)));
    return {
      strategy: 'streaming',
      encTileSize: Math.min(tile, E),
      reason: `D = ${s.nFeatures} ≤ 8 but the E·P position factor exceeds the budget: streaming with chunks of ${Math.min(tile, E)}`,
    };
  }
  if ((B * E * P + E * P) * F32 <= budget) {
    return { strategy: 'logsumexp', reason: `D = ${s.nFeatures} > 8: log-space logsumexp (B·E·P fits)` };
  }
  const tp = Math.floor((budget / F32 - E * P) / (B * E));
  if (tp >= 1) {
    return {
      strategy: 'logsumexp-tiled',
      posTileSize: Math.min(tp, P),
      reason: `D = ${s.nFeatures} > 8: B·E·P exceeds the budget, position tiles of ${Math.min(tp, P)}`,
    };
  }
  const c = Math.max(1, Math.floor(budget / F32 / (P + B * Math.min(P, 256) + B)));
  return {
    strategy: 'streaming',
    encTileSize: Math.min(c, Math.max(E, 1)),
    posTileSize: Math.min(P, 256),
    reason: `D = ${s.nFeatures} > 8 and even E·P exceeds the budget: streaming online logsumexp`,
  };
}
