/**
 * `auto` per electrode: the shared dispatch (kde-spec §7.7 with a memory budget, in
 * src/shared/memoryModel.ts), so the engine runs exactly what the estimates and findings describe.
 */
import { resolveAutoStrategy, type AutoChoice } from '../../shared/memoryModel';
import type { ElectrodeSizes, StrategyOptions } from './types';

export { DEFAULT_MEMORY_BUDGET_BYTES } from '../../shared/memoryModel';
export type { AutoChoice };

export function resolveAuto(s: ElectrodeSizes, o: StrategyOptions, nTime = 0): AutoChoice {
  return resolveAutoStrategy({ ...s, nTime }, o);
}
