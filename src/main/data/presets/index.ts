/**
 * Synthetic data: the presets a run can name (tiny to large, peer, place) built in memory from a
 * seed, the simulated recording on a linear track behind the `place` preset and
 * scripts/make-recording.ts, and the seeded random stream both draw from.
 *
 * Imports src/shared, engine/model (the spec's kernel widths) and grid/ only: no file is read or
 * written here.
 */
export { makePreset, presetInfo, PRESET_INFO, type PresetOptions, type PresetSizes } from './presets';
export {
  lapTrajectory, PLACE_POSITION_STD_CM, PLACE_WAVEFORM_STD, replayTrajectory, spikeCountsPerElectrode, tetrodeSpikes, TRACK_CM,
} from './placeSimulation';
export { Rng } from './rng';
