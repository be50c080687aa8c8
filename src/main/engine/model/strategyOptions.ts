import type { RunConfig } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { DEFAULT_BLOCK_SIZE } from './constants';
import type { StrategyOptions } from './types';

/** Strategy options from a run's configuration, falling back to the dataset's block size. */
export function strategyOptionsFor(dataset: Pick<Dataset, 'params'>, config: RunConfig): StrategyOptions {
  return {
    blockSize: config.blockSize ?? dataset.params.blockSize ?? DEFAULT_BLOCK_SIZE,
    encTileSize: config.encTileSize,
    posTileSize: config.posTileSize,
    memoryBudgetBytes: config.memoryBudgetBytes,
  };
}
