/**
 * The Gaussian kernels on tensors, built from the fused ops of ops/: a set of marks prepared for
 * kernels against many others, the mark kernel directly or through one GEMM, and the log KDE of
 * samples at evaluation points, whole or in parts that merge into the same sum (the fit's
 * occupancy, the ground densities, the local likelihood's joint density).
 *
 * Part of the engine: imports tfjs, ops/, hostMath/, engine/model and src/shared only.
 */
export { disposeMarks, kernelDirect, logKernelDirect, logMarkKernelGemm, prepareMarks, toTensor2d, type PreparedMarks } from './gaussianKernel';
export {
  BELOW_PEAK_DROPPED, KDE_PART_SAMPLES, kdePartCount, kdeParts, kdePartsWork, logKde, logKdeBelowPeak, logKdePending, logKdeWorkOf, mergeKdeParts, type KdePart,
} from './logKde';
