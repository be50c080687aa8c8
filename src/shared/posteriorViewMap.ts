/**
 * The posterior of a 2-D decode at one time row, as the page draws it as a map: which row and
 * posterior to ask for (PosteriorMapRequest, checked at runtime here for every front door), and the
 * answer (PosteriorMap): one row of the posterior file reshaped to the grid, with the MAP, the
 * true position and the recent true trajectory beside it.
 */
import { MAX_POSTERIOR_ROW_INDEX, POSTERIOR_SOURCES, type PosteriorSource } from './posteriorView';
import { badRequest, wholeNumberIn } from './requestChecks';

export interface PosteriorMapRequest {
  /** the decode's time row (from 0); must be below its rows */
  row: number;
  /** default acausal */
  source?: PosteriorSource;
  /** at most this many cells along either axis; a larger grid is summed in groups of bins (default 200) */
  maxSide?: number;
  /** the true trajectory over this many rows before `row` (default 0: none) */
  trailRows?: number;
}

/**
 * One row's posterior over the open field. Cell (ix, iy) is `values[iy · nx + ix]`: the
 * probability that the position lies in its bins, summed over the states the view shows (the
 * detector's two non-local states, the decoder's continuous one); NaN where none of its bins is on
 * the track. Over the WebSocket NaN arrives as null.
 */
export interface PosteriorMap {
  source: PosteriorSource;
  row: number;
  /** seconds */
  time: number;
  nx: number;
  ny: number;
  /** the centre of each column of cells along x (nx), and of each row along y (ny) */
  x: number[];
  y: number[];
  /** ny × nx, row iy of cells after row iy − 1 (y grows with the index) */
  values: number[];
  /** the sum of `values`: how much of the row's probability the map holds (small while the detector is Local) */
  mass: number;
  /** the MAP position (x, y) of this row; NaN where the spatial states hold no mass */
  mapPosition: [number, number];
  /** the true position at this row, where the dataset knew it */
  truePosition?: [number, number];
  /** the true trajectory over the asked rows up to this one, thinned to at most MAX_TRAIL_POINTS */
  trail?: { x: number[]; y: number[] };
  /** each state's probability at this row, in the view's `states` order (absent for a model of one state) */
  stateProbabilities?: number[];
}

export const DEFAULT_MAP_SIDE = 200;
export const MAX_MAP_SIDE = 400;
/** far beyond a readable trail: a few seconds at the decode's rate */
export const MAX_TRAIL_ROWS = 100_000;
export const MAX_TRAIL_POINTS = 500;

export type CheckedPosteriorMapRequest = Required<PosteriorMapRequest>;

const KEYS: readonly string[] = ['row', 'source', 'maxSide', 'trailRows'] satisfies (keyof PosteriorMapRequest)[];

/** Checks a PosteriorMapRequest from the other side of a process boundary; the error names the key. */
export function posteriorMapRequest(v: unknown): CheckedPosteriorMapRequest {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badRequest('request', `expected { row, ${KEYS.slice(1).join('?, ')}? }`);
  const r = v as Record<string, unknown>;
  const unknown = Object.keys(r).filter((k) => !KEYS.includes(k));
  if (unknown.length > 0) throw badRequest(`request.${unknown[0]!.slice(0, 40)}`, `is not a posterior map request key; expected one of ${KEYS.join(', ')}`);
  if (r.source !== undefined && !(POSTERIOR_SOURCES as readonly unknown[]).includes(r.source)) {
    throw badRequest('request.source', `expected ${POSTERIOR_SOURCES.join(' or ')}, got ${JSON.stringify(r.source).slice(0, 60)}`);
  }
  return {
    row: wholeNumberIn(r.row, 'request.row', 0, MAX_POSTERIOR_ROW_INDEX),
    source: (r.source as PosteriorSource | undefined) ?? 'acausal',
    maxSide: r.maxSide === undefined ? DEFAULT_MAP_SIDE : wholeNumberIn(r.maxSide, 'request.maxSide', 1, MAX_MAP_SIDE),
    trailRows: r.trailRows === undefined ? 0 : wholeNumberIn(r.trailRows, 'request.trailRows', 0, MAX_TRAIL_ROWS),
  };
}
