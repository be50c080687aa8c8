/**
 * FUSED_LIKELIHOOD_KERNEL on WebGPU: one electrode's spike terms for a block of decoding spikes in
 * two dispatches, as TensorFlow.js programs on its webgpu backend (so the model's tensors, the
 * buffer pool and the readback stay TensorFlow.js's own).
 *
 * 1. spikeMax: one workgroup per decoding spike reduces M_s = max_i logKmark(s,i) + a_i over the
 *    encoding spikes with a finite a_i (the mark kernel by direct differences, no expanded square).
 * 2. terms: each workgroup owns a tile of TILE_SPIKES spikes × TILE_BINS bins and walks the encoding
 *    spikes TILE_ENC at a time: the weights exp(logKmark + a_i − M_s) of its spikes into workgroup
 *    memory, the factor's tile beside them, a register tile of products per invocation; its epilogue
 *    takes the log, adds M_s − log E + c and the bias, and floors. The (B × E) mark kernel and the
 *    (B × E × P) products never reach device memory.
 *
 * A scale per spike (not one per block as the op graph's compensated fold has) keeps every spike's
 * largest term at 1, so no spike underflows that the float64 sum would not.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { FusedLikelihoodAttrs } from '../kernels';
import { FLOAT_CHECKS, type WebGpuBackendLike, type WebGpuProgram } from './program';

/** decoding spikes and bins per workgroup tile, encoding spikes per step */
export const TILE_SPIKES = 64;
export const TILE_BINS = 64;
export const TILE_ENC = 32;
/** the tiles as the op's work count reads them */
export const FUSED_TILES = { spikes: TILE_SPIKES, bins: TILE_BINS, encoding: TILE_ENC } as const;
/** invocations per workgroup of the terms program (16 × 16, a 4 × 4 register tile each) */
const THREADS_X = 16;
const THREADS_Y = 16;
/** invocations per workgroup of the spikeMax program */
const MAX_THREADS = 128;

/** The mark dimensions the programs are compiled for (a pipeline per D, compiled once per process). */
export const MAX_FEATURES = 16;

/** Workgroup memory the terms program needs for D mark dimensions, in bytes. */
export function termsWorkgroupBytes(nFeatures: number): number {
  return 4 * (TILE_SPIKES * TILE_ENC + TILE_ENC * TILE_BINS + TILE_ENC * nFeatures + TILE_ENC + TILE_SPIKES * nFeatures + TILE_SPIKES);
}

/** Program 1: M_s for every spike of the block, (B). */
export function spikeMaxProgram(nSpikes: number, nFeatures: number): WebGpuProgram {
  const D = nFeatures;
  return {
    outputShape: [nSpikes],
    shaderKey: `KdeFusedSpikeMax_D${D}`,
    dispatchLayout: { x: [0] },
    dispatch: [nSpikes, 1, 1],
    variableNames: ['dec', 'invStd', 'encT', 'rowMax'],
    uniforms: 'first : i32,',
    workgroupSize: [MAX_THREADS, 1, 1],
    getUserCode: () => `
      ${FLOAT_CHECKS}
      var<workgroup> partial : array<f32, ${MAX_THREADS}>;
      // a one-dimensional layout: TensorFlow.js calls main with the flat index, unused here
      fn main(index : i32) {
        let s = i32((workgroupId.z * numWorkgroups.y + workgroupId.y) * numWorkgroups.x + workgroupId.x);
        let nSpikes = uniforms.outShape;
        let nEnc = uniforms.rowMaxShape.y;
        var m = -3.4028234e38;
        if (s < nSpikes) {
          var y : array<f32, ${D}>;
          for (var d = 0; d < ${D}; d++) { y[d] = dec[(uniforms.first + s) * ${D} + d] * invStd[d]; }
          for (var i = i32(localIndex); i < nEnc; i += ${MAX_THREADS}) {
            let a = rowMax[i];
            if (kdeIsFinite(a)) {
              var q = 0.0;
              for (var d = 0; d < ${D}; d++) { let t = y[d] - encT[d * nEnc + i]; q += t * t; }
              m = max(m, a - 0.5 * q);
            }
          }
        }
        partial[localIndex] = m;
        workgroupBarrier();
        for (var stride = ${MAX_THREADS / 2}u; stride > 0u; stride = stride / 2u) {
          if (localIndex < stride) { partial[localIndex] = max(partial[localIndex], partial[localIndex + stride]); }
          workgroupBarrier();
        }
        if (localIndex == 0u && s < nSpikes) { result[s] = partial[0]; }
      }`,
  };
}

const RS = TILE_SPIKES / THREADS_Y;
const RB = TILE_BINS / THREADS_X;
const THREADS = THREADS_X * THREADS_Y;

/** Program 2's workgroup memory: the weights and factor tiles, the encoding step's marks and maxima, the block's spikes. */
function termsTiles(D: number): string {
  return `
      var<workgroup> wTile : array<f32, ${TILE_SPIKES * TILE_ENC}>;
      var<workgroup> fTile : array<f32, ${TILE_ENC * TILE_BINS}>;
      var<workgroup> encTile : array<f32, ${TILE_ENC * D}>;
      var<workgroup> aTile : array<f32, ${TILE_ENC}>;
      var<workgroup> yTile : array<f32, ${TILE_SPIKES * D}>;
      var<workgroup> mTile : array<f32, ${TILE_SPIKES}>;`;
}

/** The tile's spikes over the widths, and their scales, once per workgroup. */
function loadSpikes(D: number): string {
  return `
        for (var k = t; k < ${TILE_SPIKES * D}; k += ${THREADS}) {
          let s = s0 + k / ${D};
          yTile[k] = select(0.0, dec[(uniforms.first + s) * ${D} + k % ${D}] * invStd[k % ${D}], s < nSpikes);
        }
        for (var r = t; r < ${TILE_SPIKES}; r += ${THREADS}) {
          let s = s0 + r;
          mTile[r] = select(0.0, spikeMax[s], s < nSpikes);
        }`;
}

/** One encoding step's operands: marks, maxima (an encoding spike past the end or with a non-finite maximum weighs nothing), factor. */
function loadEncodingStep(D: number): string {
  return `
          for (var k = t; k < ${TILE_ENC * D}; k += ${THREADS}) {
            let i = i0 + k % ${TILE_ENC};
            encTile[k] = select(0.0, encT[(k / ${TILE_ENC}) * nEnc + i], i < nEnc);
          }
          for (var k = t; k < ${TILE_ENC}; k += ${THREADS}) {
            let i = i0 + k;
            var a = -3.4028234e38;
            if (i < nEnc) { let v = rowMax[i]; if (kdeIsFinite(v)) { a = v; } }
            aTile[k] = a;
          }
          for (var k = t; k < ${TILE_ENC * TILE_BINS}; k += ${THREADS}) {
            let i = i0 + k / ${TILE_BINS};
            let p = p0 + k % ${TILE_BINS};
            fTile[k] = select(0.0, factor[i * nBins + p], i < nEnc && p < nBins);
          }`;
}

/** The step's weights exp(logKmark + a_i − M_s) (without c), then each invocation's register tile of products. */
function weightsAndProduct(D: number): string {
  return `
          for (var k = t; k < ${TILE_SPIKES * TILE_ENC}; k += ${THREADS}) {
            let r = k / ${TILE_ENC};
            let j = k % ${TILE_ENC};
            var q = 0.0;
            for (var d = 0; d < ${D}; d++) { let u = yTile[r * ${D} + d] - encTile[d * ${TILE_ENC} + j]; q += u * u; }
            let a = aTile[j];
            wTile[k] = select(0.0, exp(a - 0.5 * q - mTile[r]), a > -3.4e38);
          }
          workgroupBarrier();
          for (var j = 0; j < ${TILE_ENC}; j++) {
            var f : array<f32, ${RB}>;
            for (var b = 0; b < ${RB}; b++) { f[b] = fTile[j * ${TILE_BINS} + tx + b * ${THREADS_X}]; }
            for (var r = 0; r < ${RS}; r++) {
              let w = wTile[(ty + r * ${THREADS_Y}) * ${TILE_ENC} + j];
              for (var b = 0; b < ${RB}; b++) { acc[r][b] = fma(w, f[b], acc[r][b]); }
            }
          }`;
}

/** log, scale, normaliser and bias, floored; a NaN sum stays NaN, a zero sum or a bin without occupancy is the floor. */
const EPILOGUE = `
        for (var r = 0; r < ${RS}; r++) {
          let row = ty + r * ${THREADS_Y};
          let s = s0 + row;
          for (var b = 0; b < ${RB}; b++) {
            let p = p0 + tx + b * ${THREADS_X};
            if (s < nSpikes && p < nBins) {
              let sum = acc[r][b];
              let bp = bias[p];
              var term = uniforms.floor;
              if (kdeIsNan(sum)) {
                term = sum;
              } else if (sum > 0.0 && kdeIsFinite(bp)) {
                term = max(log(sum) + mTile[row] + uniforms.c - uniforms.logE + bp, uniforms.floor);
              }
              result[s * nBins + p] = term;
            }
          }
        }`;

/** Program 2: the spike terms ℓ (B × P). */
export function termsProgram(nSpikes: number, nBins: number, nFeatures: number): WebGpuProgram {
  const D = nFeatures;
  return {
    outputShape: [nSpikes, nBins],
    shaderKey: `KdeFusedTerms_D${D}`,
    dispatchLayout: { x: [1], y: [0] },
    dispatch: [Math.ceil(nBins / TILE_BINS), Math.ceil(nSpikes / TILE_SPIKES), 1],
    variableNames: ['dec', 'invStd', 'encT', 'rowMax', 'factor', 'spikeMax', 'bias'],
    uniforms: 'first : i32, c : f32, logE : f32, floor : f32,',
    workgroupSize: [THREADS_X, THREADS_Y, 1],
    getUserCode: () => `
      ${FLOAT_CHECKS}
      ${termsTiles(D)}
      fn main() {
        let nSpikes = uniforms.outShape.x;
        let nBins = uniforms.outShape.y;
        let nEnc = uniforms.factorShape.x;
        let s0 = i32(workgroupId.y) * ${TILE_SPIKES};
        let p0 = i32(workgroupId.x) * ${TILE_BINS};
        let t = i32(localIndex);
        let tx = i32(localId.x);
        let ty = i32(localId.y);
        ${loadSpikes(D)}
        var acc : array<array<f32, ${RB}>, ${RS}>;
        for (var i0 = 0; i0 < nEnc; i0 += ${TILE_ENC}) {
          workgroupBarrier();
          ${loadEncodingStep(D)}
          workgroupBarrier();
          ${weightsAndProduct(D)}
        }
        ${EPILOGUE}
      }`,
  };
}

/** The kernel: program 1 then program 2; M_s is freed before it returns (it never leaves the kernel). */
export function fusedLikelihood(backend: WebGpuBackendLike, inputs: Record<string, tf.TensorInfo>, attrs: FusedLikelihoodAttrs): tf.TensorInfo {
  const { dec, invStd, encT, rowMax, factor, bias } = inputs as Record<'dec' | 'invStd' | 'encT' | 'rowMax' | 'factor' | 'bias', tf.TensorInfo>;
  const nSpikes = attrs.count;
  const nFeatures = dec!.shape[1]!;
  const nBins = factor!.shape[1]!;
  const flatMax = { ...rowMax!, shape: [1, rowMax!.shape.reduce((a, b) => a * b, 1)] };
  const first = { type: 'int32' as const, data: [attrs.first] };
  const spikeMax = backend.runWebGPUProgram(spikeMaxProgram(nSpikes, nFeatures), [dec!, invStd!, encT!, flatMax], 'float32', [first]);
  try {
    return backend.runWebGPUProgram(termsProgram(nSpikes, nBins, nFeatures), [dec!, invStd!, encT!, flatMax, factor!, spikeMax, bias!], 'float32', [
      first, { type: 'float32', data: [attrs.c] }, { type: 'float32', data: [attrs.logE] }, { type: 'float32', data: [attrs.floor] },
    ]);
  } finally {
    backend.disposeData(spikeMax.dataId);
  }
}
