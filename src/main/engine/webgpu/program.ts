/**
 * What the engine's WGSL kernels share: the shape of a TensorFlow.js webgpu program, the part of
 * the backend a kernel calls, and the float bit tests their shaders use.
 */
import type * as tf from '@tensorflow/tfjs-core';

/** What TensorFlow.js's webgpu backend takes as a program (its WebGPUProgram, not exported as a type). */
export interface WebGpuProgram {
  outputShape: number[];
  shaderKey: string;
  dispatchLayout: { x: number[]; y?: number[]; z?: number[] };
  dispatch: [number, number, number];
  variableNames: string[];
  uniforms?: string;
  workgroupSize: [number, number, number];
  getUserCode(): string;
}

/** The webgpu backend as a kernel sees it: what runs a program, uploads a small operand and frees an intermediate. */
export interface WebGpuBackendLike {
  runWebGPUProgram(program: WebGpuProgram, inputs: tf.TensorInfo[], dtype: 'float32', uniforms?: { type: 'float32' | 'int32'; data: number[] }[]): tf.TensorInfo;
  makeTensorInfo(shape: number[], dtype: 'int32' | 'float32', values: Int32Array | Float32Array): tf.TensorInfo;
  disposeData(dataId: object): boolean;
}

/** the bit tests WGSL needs: implementations may fold isnan/isinf comparisons away */
export const FLOAT_CHECKS = `
  fn kdeIsFinite(x : f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }
  fn kdeIsNan(x : f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
`;
