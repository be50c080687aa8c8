/** Constants of the clusterless-KDE likelihood (kde-spec §1). */

/** floor inside safe_log and of each ground-process term */
export const EPS = 1e-15;
/** ln(EPS): floor of every per-spike log term of the non-local likelihood */
export const LOG_EPS = Math.log(EPS);
export const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);
export const DEFAULT_POSITION_STD = Math.sqrt(12.5);
export const DEFAULT_WAVEFORM_STD = 24.0;
export const DEFAULT_BLOCK_SIZE = 100;
/** mark dimension at or below which the compensated (matmul) path is numerically safe (spec §7e) */
export const COMPENSATED_MAX_FEATURES = 8;
/** default encoding chunk and position tile when the caller gives none */
export const DEFAULT_ENC_TILE = 256;
export const DEFAULT_POS_TILE = 256;
