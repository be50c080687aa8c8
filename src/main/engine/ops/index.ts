/**
 * The engine's fused ops, one file each: what the strategies, the fit, the KDE and the calibration
 * compute with. An op owns its backend choice (the engine's kernel where the active backend has it
 * and the shape qualifies, else a graph of tf ops, or for a fused-only op a runsFused the caller
 * asks first), its typed attributes and, where the roofline needs one, its work count. Each is a
 * namespace: `seriesTerms.runsFused(nBins)`, `seriesTerms.run(…)`.
 *
 * Imports tfjs, engine/simd (kernel names, attributes, and in fusedKernel.ts whether they are
 * installed), engine/model and the kernels' normalisers; never a strategy. Which backend is active
 * is asked in fusedKernel.ts and nowhere else in ops/.
 */
export * as accumulateRows from './accumulateRows';
export * as biasFloor from './biasFloor';
export * as compensatedWeights from './compensatedWeights';
export * as flushedExp from './flushedExp';
export * as fusedLikelihood from './fusedLikelihood';
export * as gaussianKernelMatrix from './gaussianKernelMatrix';
export * as interpolatedTerms from './interpolatedTerms';
export * as kdeColumnSums from './kdeColumnSums';
export * as linearPositionKernel from './linearPositionKernel';
export * as packedProduct from './packedProduct';
export * as positionFactorRows from './positionFactorRows';
export * as seriesFactor from './seriesFactor';
export * as seriesGroundFactor from './seriesGroundFactor';
export * as seriesTerms from './seriesTerms';
export type { PackedFactor, ScaledSum } from './packedProduct';
export type { InterpolationTensors } from './interpolatedTerms';
