/** Constants of the clusterless-KDE likelihood (kde-spec §1). */

/** floor inside safe_log and of each ground-process term */
export const EPS = 1e-15;
/** ln(EPS): floor of every per-spike log term of the non-local likelihood */
export const LOG_EPS = Math.log(EPS);
export const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);
export const DEFAULT_POSITION_STD = Math.sqrt(12.5);
export const DEFAULT_WAVEFORM_STD = 24.0;
export const DEFAULT_BLOCK_SIZE = 100;
/** the compensated-path threshold and default tiles live with the memory model, shared with the UI */
export { COMPENSATED_MAX_FEATURES, DEFAULT_POS_TILE_SIZE as DEFAULT_POS_TILE } from '../../shared/memoryModel';
