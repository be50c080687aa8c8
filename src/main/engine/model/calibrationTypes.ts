/**
 * The backend calibration as the engine's model sees it: the same type report.json carries, so the
 * analysis, the roofline and the report read one definition without loading TensorFlow.js.
 */
export type { Calibration, RooflineCeiling, StageRoofline, StrategyRoofline } from '../../../shared/roofline';
