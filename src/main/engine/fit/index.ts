/**
 * The encoding fit (kde-spec §3): the occupancy over the place grid, per electrode its mean rate,
 * its ground process and what its strategy keeps for predict (a strategy's fitKeep, so the fit
 * imports no strategy by name), the positions cached on the device; and where spikes fall on the
 * position track (their rows, interpolated positions, the rows inside bounds), which the fit and
 * both predicts share.
 *
 * Part of the engine: imports tfjs, the engine's other modules, engine/model and src/shared only.
 */
export {
  encodingModelOf, fitElectrodesAt, fitEncodingModel, mergeOccupancy, occupancyPartCount, occupancyParts, prepareFit, sumGroundProcess,
  type EncodingModel, type FitContext, type FitOptions, type FittedElectrode,
} from './fit';
export { interpolatePosition, spikeRows } from './positionTrack';
export { gatherOrAll, inBoundsIndices } from './rowSelection';
