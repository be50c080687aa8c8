/**
 * What a profiling run measures and how: each strategy's cold call and warm-ups in turn, then the
 * timed repeats interleaved in rounds (strategyMeasure.ts, interleavedRepeats.ts, the calls in
 * strategyCalls.ts, the fit options per strategy), the local likelihood (localMeasure.ts), the
 * posterior stage per method (runPosterior.ts); what every step shares (measureContext.ts),
 * progress over the run's groups of units, the machine's load beside each repeat, and the
 * measurements a TensorFlow.js engine has no meaning for.
 *
 * Part of the engine process. Of its rooms it imports runFiles/, posterior/ and the session's types
 * only, never run/, decode/ or the session's code (which imports this room).
 */
export { fitOptionsFor } from './fitOptions';
export { LOCAL_GROUP, localRatioToNonlocal, measureLocal, type LocalMeasurement } from './localMeasure';
export { SpanCollector, type LoopRecorder, type MeasureContext } from './measureContext';
export { refuseBeyondHeap } from './heapLimit';
export { readLoad } from './loadReading';
export { notApplicableFor } from './notApplicable';
export { ProgressTracker, type ProgressGroup } from './progressTracker';
export { POSTERIOR_GROUP, posteriorUnits, runPosterior } from './runPosterior';
export { measureStrategies, type StrategyMeasurement } from './strategyMeasure';
