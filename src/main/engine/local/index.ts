/**
 * The local likelihood (kde-spec §4.6): the model evaluated at the animal's own interpolated
 * position instead of on the bin grid. The joint KDE of each decoding spike's mark and position is
 * summed over a window of the encoding spikes near it (localJointKde.ts); the occupancy and each
 * electrode's ground density, smooth in position and needed at every row, are tabulated within a
 * proven bound (positionDensity/).
 *
 * Part of the engine: imports tfjs, the engine's other modules, engine/model and src/shared only.
 */
export { addLocalTerms, localTerms, predictLocal, type LocalElectrodeTerms } from './local';
