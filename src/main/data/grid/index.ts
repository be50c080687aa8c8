/**
 * The place grid (kde-spec §2.2, posterior-spec §2b): 1-D and 2-D bin edges, centres and interior bins, computed with
 * numpy.linspace's and numpy.histogramdd's floating-point steps so the bins match the reference.
 *
 * Pure functions: imports src/shared only.
 */
export { buildPlaceGrid1d, histogramCounts, linspace, type PlaceGrid1d } from './grid';
export { buildPlaceGrid2d, regularGridShape, type PlaceGrid2d } from './grid2d';
