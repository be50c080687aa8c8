/**
 * The posterior stage's memory for a run that has not started: posteriorWork.ts's formula on the
 * state space the run will build. The engine, which holds the data, passes the dataset's own grid;
 * the service, which holds only the dataset's summary, passes the grid's shape, and the state space
 * is built on evenly spaced bins of that shape. The counts that make nearly all of the figure (state
 * bins, interior bins, rows, the window) are then the data's own; only the structured transition's
 * band, which is small beside the windows, is sized on even steps over the positions' range.
 */
import type { PosteriorMethod, PosteriorModel } from '../../../shared/config';
import type { DatasetSummary } from '../../../shared/dataset';
import type { PosteriorParameters } from '../../../shared/posteriorParameters';
import type { PlaceGrid } from './grid';
import { posteriorMemoryEstimate, type PosteriorMemoryEstimate } from './posteriorWork';
import { buildStateSpace } from './stateSpace';

export interface PosteriorStageAsk {
  model: PosteriorModel;
  method: PosteriorMethod;
  /** rows the stage streams per window (a decode's rowsPerChunk) */
  rowsPerWindow: number;
  parameters?: PosteriorParameters;
}

/** The stage's memory over `rows` rows of this grid. */
export function posteriorStageEstimate(ask: PosteriorStageAsk, grid: PlaceGrid, rows: number): PosteriorMemoryEstimate {
  const space = buildStateSpace(ask.model, grid, ask.parameters);
  return posteriorMemoryEstimate(space, ask.method, ask.rowsPerWindow, rows);
}

/**
 * Evenly spaced bins over the positions' range, as many as the data's grid has, its interior ones
 * first: a track without gaps, which the summary cannot tell from one with them.
 */
function gridOfShape(nBins: number, nInteriorBins: number, range: readonly [number, number]): PlaceGrid {
  const span = range[1] - range[0];
  const step = span > 0 ? span / nBins : 1;
  const centers = Float64Array.from({ length: nBins }, (_, i) => range[0] + (i + 0.5) * step);
  const interior = new Uint8Array(nBins);
  interior.fill(1, 0, nInteriorBins);
  return { centers, interior };
}

/**
 * The stage's memory before a run, from the dataset's summary; undefined where the posterior cannot
 * run on the data (positions that are not 1-D, no bin on the track).
 */
export function posteriorStageEstimateOfSummary(
  ask: PosteriorStageAsk,
  summary: Pick<DatasetSummary, 'positionDims' | 'positionRange' | 'nBins' | 'nPlaceGridBins' | 'nTime'>,
): PosteriorMemoryEstimate | undefined {
  if (summary.positionDims !== 1 || summary.nBins < 1) return undefined;
  const nBins = Math.max(summary.nBins, summary.nPlaceGridBins ?? summary.nBins);
  return posteriorStageEstimate(ask, gridOfShape(nBins, summary.nBins, summary.positionRange), summary.nTime);
}
