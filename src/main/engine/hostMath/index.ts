/**
 * Host arithmetic every room of the engine shares, on plain numbers and typed arrays, no tensors:
 * the Gaussian kernels' log-normalisers and the flush bound an electrode's kernels are built under,
 * the spec's safe log, an electrode's bias per bin and the largest finite value, and the Hermite
 * polynomials that bound an interpolation of a Gaussian.
 *
 * Part of the engine, below ops/ (which takes its log-normalisers from here): imports engine/model
 * and src/shared only, never tfjs or another room of the engine.
 */
export { hermite } from './hermite';
export { electrodeFlushIsSafe, electrodeFlushThreshold, logNormaliser } from './kernelNormalisers';
export { electrodeBias, maxFinite, safeLog } from './logSpace';
