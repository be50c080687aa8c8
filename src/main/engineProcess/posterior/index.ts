/** The posterior stage of a decode run, streamed through files of rows. */
export { decodePosterior, type PosteriorStageInputs } from './posteriorStage';
export { placeGridOf } from './posteriorInputs';
