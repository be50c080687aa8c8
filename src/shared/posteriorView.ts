/**
 * The posterior of a decode run as the page draws it: which rows and which posterior to ask for
 * (PosteriorRequest, checked at runtime here, once, for every front door), and the thinned answer
 * (PosteriorView). The posterior files themselves are the engine's (posterior/*.npy in a run).
 */
import { badRequest, wholeNumberIn } from './requestChecks';

export const POSTERIOR_SOURCES = ['acausal', 'causal'] as const;
/** the smoother's posterior (every row seen, what a lab reads afterwards) or the filter's (past rows only) */
export type PosteriorSource = (typeof POSTERIOR_SOURCES)[number];

/** Which rows of a run's posterior to show, and how finely. Every key may be left out: the whole decode, acausal. */
export interface PosteriorRequest {
  source?: PosteriorSource;
  /** first time row shown (default 0) */
  startRow?: number;
  /** one past the last time row shown (default: all rows); must be after startRow */
  endRow?: number;
  /** at most this many displayed rows; longer ranges are reduced by blocks of rows */
  maxRows?: number;
  /** at most this many displayed position columns; more bins are summed in groups */
  maxCols?: number;
}

/**
 * A range of a run's posterior over position, reduced to at most the requested rows × cols.
 * Displayed row i stands for the time rows [startRow + ⌊i·n/rows⌋, startRow + ⌊(i+1)·n/rows⌋)
 * with n = endRow − startRow; each cell is the MAXIMUM over its rows of the probability mass in its
 * group of bins, so a peak one row long stays visible in an overview. Over the WebSocket NaN
 * arrives as null.
 */
export interface PosteriorView {
  source: PosteriorSource;
  model: string;
  /** every state, in the files' column order */
  states: string[];
  /** the states whose position bins were added up into `values` */
  spatialStates: string[];
  nTime: number;
  /** position bins of one spatial state */
  nBins: number;
  /**
   * Position dimensions of the decode's grid: 1 (a track), or 2 (an open field). A 2-D view holds
   * no raster (`values` is empty, `cols` 0): the page asks for the map at one row (getPosteriorMap),
   * and draws the MAP's x and y (`mapPosition`, `mapPositionY`) as tracks over time.
   */
  dims: 1 | 2;
  /** a 2-D decode's grid, where the dataset it decoded could be read again */
  grid?: PosteriorGrid;
  /** a 2-D decode without `grid`: why the map cannot be drawn (the data file gone or changed) */
  gridProblem?: string;
  startRow: number;
  endRow: number;
  /** time rows per displayed row, on average; 1 at full resolution */
  rowsPerRow: number;
  /** row-major (rows × cols), probabilities; NaN where no bin of the group is on the track */
  values: number[];
  rows: number;
  cols: number;
  binCenters: number[];
  /** the time (s) of each displayed row's first time row */
  time: number[];
  /**
   * per displayed row: the MAP position of the block's most confident row (the row's own MAP at
   * full resolution); on a 2-D grid its x, and the most confident row is the block's highest
   * P(non-local) for the detector, the block's first row for the decoder
   */
  mapPosition: number[];
  /** 2-D: the MAP's y, at the same rows as `mapPosition` */
  mapPositionY?: number[];
  /** per displayed row: the mean true position over its block (its x on a 2-D grid), where the dataset knew it */
  truePosition?: number[];
  /** 2-D: the mean true y over each block, where the dataset knew it */
  truePositionY?: number[];
  /**
   * Per state (the `states` order), per displayed row: the acausal state probability, the maximum
   * over the block's rows. Absent for a model of one state (the decoder): it would be 1 everywhere.
   */
  stateProbabilities?: number[][];
  /**
   * Per displayed row: the maximum over the block's rows of P(Non-Local Continuous) + P(Non-Local
   * Fragmented), summed row by row before the maximum (a maximum of each state apart could add up
   * to more than any one row held). Detector only.
   */
  nonLocalProbability?: number[];
}

/**
 * An open field's grid as the posterior files hold it: bin = ix · ny + iy (x-major, NLD's C order),
 * every bin kept, interior or not (the padding bins at the edges are NaN in every row).
 */
export interface PosteriorGrid {
  /** bins along x and along y */
  shape: [number, number];
  /** the centre of each column of bins along x (nx values) */
  x: number[];
  /** the centre of each row of bins along y (ny values) */
  y: number[];
}

export const DEFAULT_POSTERIOR_ROWS = 1000;
export const DEFAULT_POSTERIOR_COLS = 500;
export const MAX_POSTERIOR_ROWS = 4000;
export const MAX_POSTERIOR_COLS = 1000;
/** far beyond any recording, but a bound all the same */
export const MAX_POSTERIOR_ROW_INDEX = 1e12;

/** a request with every key filled in; endRow undefined runs to the last row (checked against the files later) */
export type CheckedPosteriorRequest = Required<Omit<PosteriorRequest, 'endRow'>> & { endRow: number | undefined };

const KEYS: readonly string[] = ['source', 'startRow', 'endRow', 'maxRows', 'maxCols'] satisfies (keyof PosteriorRequest)[];


/** Checks a PosteriorRequest from the other side of a process boundary; the error names the key. */
export function posteriorRequest(v: unknown): CheckedPosteriorRequest {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw badRequest('request', `expected { ${KEYS.join('?, ')}? } (an empty object shows the whole decode)`);
  }
  const r = v as Record<string, unknown>;
  const unknown = Object.keys(r).filter((k) => !KEYS.includes(k));
  if (unknown.length > 0) throw badRequest(`request.${unknown[0]!.slice(0, 40)}`, `is not a posterior request key; expected one of ${KEYS.join(', ')}`);
  if (r.source !== undefined && !(POSTERIOR_SOURCES as readonly unknown[]).includes(r.source)) {
    throw badRequest('request.source', `expected ${POSTERIOR_SOURCES.join(' or ')}, got ${JSON.stringify(r.source).slice(0, 60)}`);
  }
  const startRow = r.startRow === undefined ? 0 : wholeNumberIn(r.startRow, 'request.startRow', 0, MAX_POSTERIOR_ROW_INDEX);
  const endRow = r.endRow === undefined ? undefined : wholeNumberIn(r.endRow, 'request.endRow', 1, MAX_POSTERIOR_ROW_INDEX);
  if (endRow !== undefined && endRow <= startRow) throw badRequest('request.endRow', `must be after startRow (${startRow}), got ${endRow}`);
  return {
    source: (r.source as PosteriorSource | undefined) ?? 'acausal',
    startRow,
    endRow,
    maxRows: r.maxRows === undefined ? DEFAULT_POSTERIOR_ROWS : wholeNumberIn(r.maxRows, 'request.maxRows', 1, MAX_POSTERIOR_ROWS),
    maxCols: r.maxCols === undefined ? DEFAULT_POSTERIOR_COLS : wholeNumberIn(r.maxCols, 'request.maxCols', 1, MAX_POSTERIOR_COLS),
  };
}

/** NLD's states that hold one bin, not a position: the animal where it is, and no spike at all */
export const ONE_BIN_STATES: readonly string[] = ['Local', 'No-Spike'];
/** the detector's states whose position is somewhere other than the animal's (a replay, a sweep) */
export const NON_LOCAL_STATES: readonly string[] = ['Non-Local Continuous', 'Non-Local Fragmented'];
