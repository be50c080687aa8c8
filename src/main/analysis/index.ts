/**
 * The analysis layer: pure functions that turn measurements into the report's judgements —
 * timing statistics, agreement between likelihoods, decoding accuracy, numerical health,
 * findings, the recommendation, sweeps and run comparison. Memory formulas and the `auto`
 * dispatch live in engine/model, which this layer reads.
 *
 * Imports src/shared and src/main/engine/model only. No tfjs, no electron, no node modules
 * (fs, path, os): everything here is data in, data out, so the engine process, the service and
 * the CLI can all use it and the tests need no backend.
 */
export { addTimings, compareTimings, mean, median, sampleStd, timingStats } from './stats';
export {
  BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, type Interval, medianCi95, quantileSorted, ratioOfMediansCi95, ratioOfSumsCi95, relativeHalfWidth, seededRandom,
  tukeyOutliers, verdictOf,
} from './bootstrap';
export { judgeRepeats, precisionOf, type RepeatJudgement, type RepeatState, stopReason, type StopReason } from './stopping';
export { combineMachineLoads, type LoadReading, machineLoadBetween } from './machineLoad';
export { ALLCLOSE_ATOL, ALLCLOSE_RTOL, agreementMatrix, compareArrays, rowArgmax } from './agreement';
export {
  countNonFinite,
  ENCODING_SPIKES_PER_DIMENSION,
  type ElectrodeHealthInput,
  type HealthInput,
  minEncodingSpikesFor,
  numericalHealth,
} from './health';
export * from './thresholds';
export { agreementOf, type AnalysisInput, concreteStrategy, strategyLabel, totalTiming, warmTotalMs } from './results';
export { deriveFindings } from './findings';
export { recommend } from './recommend';
export {
  compareReports, deltaPercent, formatComparisonTable, type JudgedComparison, type JudgedComparisonRow, rowIntervalText, rowVerdict,
} from './compare';
export {
  compareResults, comparisonText, formatMedianCi, formatMedianWithCi, formatRatioCi, sameStrategy, withVsReference,
} from './verdicts';
export { datasetScale, type DatasetScale } from './datasetScale';
export { accuracyOfErrors, decodedBin, decodingAccuracy, truePositionAtRows } from './accuracy';
export { analyseSweep } from './sweep';
