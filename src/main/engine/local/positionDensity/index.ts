/**
 * Gaussian KDEs over positions at many points (the local likelihood's occupancy and ground
 * densities), tabulated on Chebyshev cells within a proven bound where positions are one-dimensional.
 */
export { positionLogKde, type PositionDensity } from './positionLogKde';
export { MAX_RELATIVE_ERROR, tabulatedLogKde, type TabulatedKde } from './tabulatedKde';
export { REACH, tabulationBounds, type TabulationBounds } from './tabulationBound';
