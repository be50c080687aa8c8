/**
 * The work model's time for one fit + predict call of a strategy over a dataset, at the backend's
 * calibrated rates. Each op is taken at its ceiling, so it is a lower bound: good for ranking
 * strategies and for scaling one strategy's measured call to another's, not as a time on its own.
 */
import type { StrategyChoice } from '../../../shared/config';
import type { DatasetSummary } from '../../../shared/dataset';
import { predictedSeconds } from './autoDispatch';
import { addWork } from './opWork';
import { callStageWork, MODELLED_STAGES } from './stageWork';
import type { StrategyOptions } from './types';

/**
 * Milliseconds the model predicts for one call, or undefined without a calibration. Series' work
 * depends on its marks, which a summary lacks: compensated, what it falls back to beyond its reach,
 * stands in for it as an upper bound.
 */
export function predictedCallMs(strategy: StrategyChoice, dataset: DatasetSummary, o: StrategyOptions): number | undefined {
  if (!o.calibration) return undefined;
  const stages = callStageWork(strategy === 'series' ? 'compensated' : strategy, dataset, o);
  return predictedSeconds(addWork(...MODELLED_STAGES.map((stage) => stages[stage])), o.calibration) * 1e3;
}
