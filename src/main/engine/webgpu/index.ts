/**
 * The engine's own WebGPU kernels for TensorFlow.js's webgpu backend: WGSL programs that fuse what
 * the op graph runs as many dispatches (fusedLikelihood.ts: an electrode's spike terms for a block
 * in two; accumulateRows.ts: a block's terms summed into the window's rows on the device, so a
 * window is read back once; kdeColumnSums.ts: the fit's and the Local likelihood's KDE sums in
 * two; gaussKernel.ts: the position and mark kernel matrices in one), their
 * registration under the names of engine/kernels (install.ts) with the shapes they take, the
 * device's activity counters (activity.ts: dispatches, pipelines, bytes read back) and its
 * kernels' time from timestamp queries (gpuTimer.ts).
 *
 * Imported by engine/ops (whether a kernel takes a shape), backends/ (which installs them) and
 * the stage spans; never by a strategy. Imports tfjs, engine/kernels and engine/model's types only.
 */
export { accumulateRowsTakes, fusedLikelihoodTakes, gaussKernelTakes, hasWebGpuKernels, installWebGpuKernels, kdeColumnSumsTakes } from './install';
export { activitySince, gpuActivity, installGpuActivity, type GpuActivity } from './activity';
export { FUSED_TILES } from './fusedLikelihood';
export { gpuMsBetween, gpuTimingOn, installGpuTimer, setGpuTiming, takeGpuSpans, takeTimedPasses, timingMark, type TimedPass } from './gpuTimer';
