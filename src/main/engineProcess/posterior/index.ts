/** The posterior stage of a decode run, streamed through files of rows. */
export { decodePosterior, type PosteriorStageInputs } from './posteriorStage';
export { recordingProjection, type StageTimes } from './projection';
