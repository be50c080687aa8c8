import type { StrategyChoice } from '../../../shared/config';
import type { FitOptions } from '../../engine';
import { DEFAULT_MEMORY_BUDGET_BYTES } from '../../engine/model';

/**
 * How to fit for a strategy: the reference and series strategies use the linear position kernel the fit
 * computes the ground process from, so the fit keeps it (within the memory budget) instead of the
 * predict building it again. `auto` fits as series does: where the series' plan covers the
 * encoding marks the fit keeps its factor, and auto's cost model counts it as built. Runs and the
 * bench fit the same way.
 */
export function fitOptionsFor(strategy: StrategyChoice, memoryBudgetBytes: number | undefined): FitOptions {
  const keepPositionKernelBytes = memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  if (strategy === 'reference') return { keepPositionKernelBytes };
  // series reads the kernel only where its plan covers the marks; elsewhere it runs compensated
  if (strategy === 'series' || strategy === 'auto') return { keepPositionKernelBytes, keepOnlyForSeries: true };
  return {};
}
