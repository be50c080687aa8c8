/**
 * The place grid the posterior runs on (posterior-spec §2): every bin's centre and its interior
 * flag, the shape the dataset keeps (`Dataset.placeGrid`). The grid is built once, by the data
 * loaders (data/grid/, numpy's linspace and histogramdd step for step); the posterior only reads it.
 */
import type { PlaceGridBins } from '../../../shared/dataset';

export type PlaceGrid = PlaceGridBins;
