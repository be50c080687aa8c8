/**
 * How an op reaches an engine kernel. TensorFlow.js finds a kernel by its name on the active
 * backend, so an op asks for it by name (engine/kernels) and never sees the backend. A backend
 * has the engine's kernels once they are installed on it: the wasm backend's SIMD kernels (simd/)
 * and the webgpu backend's WGSL programs (webgpu/), each a kernel of the names it implements.
 */
import * as tf from '@tensorflow/tfjs-core';
import { type EngineKernelAttrs, type EngineKernelName } from '../kernels';
import { hasWasmKernels } from '../simd';
import { hasWebGpuKernels } from '../webgpu';

/** Per backend name, whether the engine's kernels are installed on the active backend of that name. */
const KERNELS_INSTALLED: Readonly<Record<string, () => boolean>> = { wasm: hasWasmKernels, webgpu: hasWebGpuKernels };

/** Whether the active backend runs this engine kernel. */
export function fusedKernelRuns(name: EngineKernelName): boolean {
  return fusedKernelBackend(name) !== null;
}

/**
 * The active backend where it runs this engine kernel, else null: for an op whose kernel takes
 * different shapes on different backends (the WGSL programs are compiled per width).
 */
export function fusedKernelBackend(name: EngineKernelName): 'wasm' | 'webgpu' | null {
  const backend = tf.getBackend();
  const installed = KERNELS_INSTALLED[backend];
  return installed !== undefined && installed() && tf.getKernel(name, backend) !== undefined ? (backend as 'wasm' | 'webgpu') : null;
}

/** An engine kernel with one output, its attributes typed by its name. */
export function runFusedKernel<K extends EngineKernelName>(name: K, inputs: tf.NamedTensorMap, attrs: EngineKernelAttrs[K]): tf.Tensor {
  return dispatch(name, inputs, attrs) as tf.Tensor;
}

/** An engine kernel with several outputs, in the order its kernel name's comment gives them. */
export function runFusedKernelOutputs<K extends EngineKernelName>(name: K, inputs: tf.NamedTensorMap, attrs: EngineKernelAttrs[K]): tf.Tensor[] {
  return dispatch(name, inputs, attrs) as tf.Tensor[];
}

/** The one place typed attributes become TensorFlow.js's untyped attribute map. */
function dispatch<K extends EngineKernelName>(name: K, inputs: tf.NamedTensorMap, attrs: EngineKernelAttrs[K]): tf.Tensor | tf.Tensor[] {
  return tf.engine().runKernel(name, inputs, attrs as unknown as tf.NamedAttrMap);
}

/** Samples (n × q) and points (m × q) over the kernel widths, the points transposed (q × m): what the Gaussian kernels take. */
export function overWidths(samples: tf.Tensor2D, points: tf.Tensor2D, std: number[]): { a: tf.Tensor2D; bt: tf.Tensor2D } {
  const inv = tf.tensor1d(std.map((s) => 1 / s));
  return { a: tf.mul(samples, inv), bt: tf.transpose(tf.mul(points, inv)) };
}
