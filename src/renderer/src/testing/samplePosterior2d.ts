/**
 * A 2-D detector decode for store and component tests: 200 rows of 0.01 s on an 8 × 6 grid of
 * 10 cm bins (centres 5 … 75 along x, 5 … 55 along y) whose edge bins are off the track; the MAP
 * walks the interior one bin every 10 rows, the true position 1 cm beside it, non-local from row
 * 120 to 139. Row r's map peaks at the MAP's bin with 0.5 × P(non-local).
 */
import type { PosteriorRequest, PosteriorView } from '../../../shared/posteriorView';
import type { PosteriorMap, PosteriorMapRequest } from '../../../shared/posteriorViewMap';

export const FIELD_ROWS = 200;
export const FIELD_SHAPE: [number, number] = [8, 6];
const X = Array.from({ length: FIELD_SHAPE[0] }, (_, i) => 5 + 10 * i);
const Y = Array.from({ length: FIELD_SHAPE[1] }, (_, i) => 5 + 10 * i);

/** the interior bin (ix, iy) the MAP is in at row r */
export function fieldPeak(r: number): [number, number] {
  const k = Math.floor(r / 10) % 24;
  return [1 + (k % 6), 1 + Math.floor(k / 6)];
}

const nonLocalAt = (r: number): number => (r >= 120 && r < 140 ? 0.9 : 0.05);

export function fieldView(request: PosteriorRequest = {}): PosteriorView {
  const startRow = request.startRow ?? 0;
  const endRow = request.endRow ?? FIELD_ROWS;
  const rows = Math.min(endRow - startRow, request.maxRows ?? 1000);
  const firstRows = Array.from({ length: rows }, (_, i) => startRow + Math.floor((i * (endRow - startRow)) / rows));
  const nl = firstRows.map(nonLocalAt);
  return {
    source: request.source ?? 'acausal', model: 'detector',
    states: ['Local', 'No-Spike', 'Non-Local Continuous', 'Non-Local Fragmented'], spatialStates: ['Non-Local Continuous', 'Non-Local Fragmented'],
    nTime: FIELD_ROWS, nBins: FIELD_SHAPE[0] * FIELD_SHAPE[1], dims: 2, grid: { shape: FIELD_SHAPE, x: X, y: Y },
    startRow, endRow, rowsPerRow: (endRow - startRow) / rows, values: [], rows, cols: 0, binCenters: [],
    time: firstRows.map((r) => r / 100),
    mapPosition: firstRows.map((r) => X[fieldPeak(r)[0]]!), mapPositionY: firstRows.map((r) => Y[fieldPeak(r)[1]]!),
    truePosition: firstRows.map((r) => X[fieldPeak(r)[0]]! + 1), truePositionY: firstRows.map((r) => Y[fieldPeak(r)[1]]! + 1),
    stateProbabilities: [nl.map((p) => 1 - p), nl.map(() => 0), nl.map((p) => p * 0.8), nl.map((p) => p * 0.2)],
    nonLocalProbability: nl,
  };
}

export function fieldMap(request: PosteriorMapRequest): PosteriorMap {
  const r = request.row;
  const [nx, ny] = FIELD_SHAPE;
  const [px, py] = fieldPeak(r);
  const nl = nonLocalAt(r);
  const values = Array.from({ length: nx * ny }, (_, i) => {
    const [ix, iy] = [i % nx, Math.floor(i / nx)];
    if (ix === 0 || iy === 0 || ix === nx - 1 || iy === ny - 1) return Number.NaN;
    return ix === px && iy === py ? 0.5 * nl : (0.5 * nl) / 23;
  });
  const trailFrom = Math.max(0, r - (request.trailRows ?? 0));
  const trailRows = Array.from({ length: r - trailFrom + 1 }, (_, i) => trailFrom + i);
  return {
    source: request.source ?? 'acausal', row: r, time: r / 100, nx, ny, x: X, y: Y, values, mass: nl,
    mapPosition: [X[px]!, Y[py]!], truePosition: [X[px]! + 1, Y[py]! + 1],
    ...(request.trailRows ? { trail: { x: trailRows.map((t) => X[fieldPeak(t)[0]]! + 1), y: trailRows.map((t) => Y[fieldPeak(t)[1]]! + 1) } } : {}),
    stateProbabilities: [1 - nl, 0, nl * 0.8, nl * 0.2],
  };
}
