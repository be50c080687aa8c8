/**
 * Installs the engine's WebGPU kernels on TensorFlow.js's webgpu backend, under the names of
 * kernels/names.ts. Once per process (the kernel registry is per
 * thread; the device lives in one thread of the engine process). The activity counters
 * (activity.ts) are installed apart, with or without these kernels. A new kernel is a file exporting
 * its programs and kernel function, listed here with the shapes it takes.
 */
import * as tf from '@tensorflow/tfjs-core';
import {
  ACCUMULATE_ROWS_KERNEL, FUSED_LIKELIHOOD_KERNEL, GAUSS_KERNEL, KDE_COLUMN_SUMS_KERNEL,
  type AccumulateRowsAttrs, type FusedLikelihoodAttrs, type GaussAttrs, type KdeColumnSumsAttrs,
} from '../kernels';
import { accumulateRows } from './accumulateRows';
import { gaussKernel, MAX_GAUSS_DIMS } from './gaussKernel';
import { fusedLikelihood, termsWorkgroupBytes, MAX_FEATURES } from './fusedLikelihood';
import { kdeColumnSums, kdeWorkgroupBytes, MAX_KDE_DIMS } from './kdeColumnSums';
import type { WebGpuBackendLike } from './program';

interface DeviceLimits {
  maxComputeWorkgroupStorageSize: number;
  maxStorageBufferBindingSize: number;
}

let limits: DeviceLimits | null = null;

type KernelArgs = Parameters<tf.KernelFunc>[0];
const gpu = (args: KernelArgs): [WebGpuBackendLike, Record<string, tf.TensorInfo>] =>
  [args.backend as unknown as WebGpuBackendLike, args.inputs as Record<string, tf.TensorInfo>];

const KERNELS: readonly tf.KernelConfig[] = [
  {
    kernelName: FUSED_LIKELIHOOD_KERNEL,
    backendName: 'webgpu',
    kernelFunc: (args) => fusedLikelihood(...gpu(args), args.attrs as unknown as FusedLikelihoodAttrs),
  },
  {
    kernelName: ACCUMULATE_ROWS_KERNEL,
    backendName: 'webgpu',
    kernelFunc: (args) => accumulateRows(...gpu(args), args.attrs as unknown as AccumulateRowsAttrs),
  },
  {
    kernelName: GAUSS_KERNEL,
    backendName: 'webgpu',
    kernelFunc: (args) => gaussKernel(...gpu(args), args.attrs as unknown as GaussAttrs),
  },
  {
    kernelName: KDE_COLUMN_SUMS_KERNEL,
    backendName: 'webgpu',
    kernelFunc: (args) => kdeColumnSums(...gpu(args), args.attrs as unknown as KdeColumnSumsAttrs),
  },
];

/** Call after tf.setBackend('webgpu') has resolved. */
export function installWebGpuKernels(): void {
  const device = (tf.backend() as unknown as { device: { limits: DeviceLimits } }).device;
  limits = { maxComputeWorkgroupStorageSize: device.limits.maxComputeWorkgroupStorageSize, maxStorageBufferBindingSize: device.limits.maxStorageBufferBindingSize };
  for (const config of KERNELS) if (!tf.getKernel(config.kernelName, 'webgpu')) tf.registerKernel(config);
}

/** Whether the engine's kernels are installed on the active webgpu backend. */
export function hasWebGpuKernels(): boolean {
  return limits !== null && tf.getBackend() === 'webgpu';
}

/**
 * Whether the fused likelihood takes an electrode of this shape on this device: D mark dimensions
 * within the compiled range, its tiles within the device's workgroup memory, and the factor within
 * one storage binding.
 */
export function fusedLikelihoodTakes(nEnc: number, nBins: number, nFeatures: number): boolean {
  if (limits === null || nEnc < 1 || nBins < 1 || nFeatures < 1 || nFeatures > MAX_FEATURES) return false;
  return termsWorkgroupBytes(nFeatures) <= limits.maxComputeWorkgroupStorageSize && 4 * nEnc * nBins <= limits.maxStorageBufferBindingSize;
}

/** Whether the KDE column sums take samples of q coordinates on this device (any number of samples and points). */
export function kdeColumnSumsTakes(q: number): boolean {
  return limits !== null && q >= 1 && q <= MAX_KDE_DIMS && kdeWorkgroupBytes(q) <= limits.maxComputeWorkgroupStorageSize;
}

/** Whether the Gaussian kernel matrix takes d coordinates (any number of samples and points). */
export function gaussKernelTakes(d: number): boolean {
  return limits !== null && d >= 1 && d <= MAX_GAUSS_DIMS;
}

/**
 * Whether a window's accumulator of accRows × nBins float32 fits one storage binding and the share
 * of device memory the engine gives it: two are alive while a block is added (the old and the new).
 */
export function accumulateRowsTakes(accRows: number, nBins: number, maxBytes: number): boolean {
  const bytes = 4 * accRows * nBins;
  return limits !== null && accRows >= 1 && nBins >= 1 && bytes <= limits.maxStorageBufferBindingSize && 2 * bytes <= maxBytes;
}
