/**
 * KDE_COLUMN_SUMS_KERNEL on WebGPU: Gaussian KDE parts' column sums in two dispatches, the
 * (samples × points) kernel never in device memory. What the fit sums (the occupancy and each
 * electrode's ground density on the bins) and what the Local likelihood sums (the joint KDE at the
 * spikes) both come here, so the fit takes a fixed number of dispatches per electrode whatever the
 * number of samples, where the op graph takes a handful per tile of 2^18 kernel elements.
 *
 * 1. columnMax: per part and point the largest log kernel c − ½|a_i − b_p|² over the part's samples
 *    (with shiftByPeak, c itself and no pass over the samples);
 * 2. columnSum: per part and point Σ_i exp(logK − max), terms below 2^−63 of the peak dropped under
 *    shiftByPeak as the contract says.
 * Each workgroup owns POINTS points of one part and stages the part's samples SAMPLE_TILE at a time
 * in workgroup memory; an invocation keeps its point in registers. A NaN difference makes its
 * column NaN in both outputs (the float64 sum would be NaN); +∞ apart is a term of 0.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { KdeColumnSumsAttrs } from '../kernels';
import { FLOAT_CHECKS, type WebGpuBackendLike, type WebGpuProgram } from './program';

/** points per workgroup (one per invocation) and samples staged per step */
const POINTS = 128;
const SAMPLE_TILE = 128;

/** The widest sample the programs are compiled for (a pipeline per width, compiled once per process). */
export const MAX_KDE_DIMS = 32;

/** Workgroup memory a program needs for samples of q coordinates, in bytes. */
export function kdeWorkgroupBytes(q: number): number {
  return 4 * SAMPLE_TILE * q;
}

/** ln 2^−63: a term this far below the peak is dropped under shiftByPeak */
const LOG_DROPPED = -63 * Math.LN2;

/**
 * The loop both programs share: the part's samples tile by tile into workgroup memory, then for
 * this invocation's point each sample's log kernel less c, as `z`, handed to `body`.
 */
function overSamples(Q: number, body: string): string {
  return `
        let k = i32(workgroupId.y);
        let p = i32(workgroupId.x) * ${POINTS} + i32(localIndex);
        let nPoints = uniforms.btShape.y;
        // the part's rows through workgroup memory: uniform across the workgroup, as its barriers need
        if (localIndex == 0u) { partRange = vec2<i32>(partStart[k], partStart[k + 1]); }
        let range = workgroupUniformLoad(&partRange);
        let start = range.x;
        let end = range.y;
        var x : array<f32, ${Q}>;
        if (p < nPoints) { for (var d = 0; d < ${Q}; d++) { x[d] = bt[d * nPoints + p]; } }
        for (var i0 = start; i0 < end; i0 += ${SAMPLE_TILE}) {
          workgroupBarrier();
          for (var j = i32(localIndex); j < ${SAMPLE_TILE * Q}; j += ${POINTS}) {
            let i = i0 + j / ${Q};
            sTile[j] = select(0.0, a[i * ${Q} + j % ${Q}], i < end);
          }
          workgroupBarrier();
          let count = min(${SAMPLE_TILE}, end - i0);
          for (var j = 0; j < count; j++) {
            var q = 0.0;
            for (var d = 0; d < ${Q}; d++) { let u = x[d] - sTile[j * ${Q} + d]; q += u * u; }
            let z = -0.5 * q;
            ${body}
          }
        }`;
}

function header(Q: number): string {
  return `
      ${FLOAT_CHECKS}
      var<workgroup> sTile : array<f32, ${SAMPLE_TILE * Q}>;
      var<workgroup> partRange : vec2<i32>;`;
}

/** Program 1: colMax (parts × m); under shiftByPeak c everywhere, with no operands (a layout drops bindings a shader never reads). */
export function columnMaxProgram(parts: number, nPoints: number, q: number, shiftByPeak: boolean): WebGpuProgram {
  const program = {
    outputShape: [parts, nPoints],
    dispatchLayout: { x: [1], y: [0] },
    dispatch: [Math.ceil(nPoints / POINTS), parts, 1] as [number, number, number],
    uniforms: 'c : f32,',
    workgroupSize: [POINTS, 1, 1] as [number, number, number],
  };
  if (shiftByPeak) {
    return {
      ...program,
      shaderKey: 'KdeColumnPeak',
      variableNames: [],
      getUserCode: () => `
      fn main() {
        let p = i32(workgroupId.x) * ${POINTS} + i32(localIndex);
        if (p < uniforms.outShape.y) { result[i32(workgroupId.y) * uniforms.outShape.y + p] = uniforms.c; }
      }`,
    };
  }
  return {
    ...program,
    shaderKey: `KdeColumnMax_Q${q}`,
    variableNames: ['a', 'bt', 'partStart'],
    getUserCode: () => `
      ${header(q)}
      fn main() {
        var negInf = 0xff800000u;
        var m = bitcast<f32>(negInf);
        var nan = false;
        var nanValue = 0.0;
        ${overSamples(q, 'if (kdeIsNan(z)) { nan = true; nanValue = z; } else { m = max(m, z); }')}
        if (p < nPoints) { result[k * nPoints + p] = select(m + uniforms.c, nanValue, nan); }
      }`,
  };
}

/** Program 2: colSum (parts × m) against program 1's maxima. */
export function columnSumProgram(parts: number, nPoints: number, q: number, shiftByPeak: boolean): WebGpuProgram {
  return {
    outputShape: [parts, nPoints],
    shaderKey: `KdeColumnSum_Q${q}_${shiftByPeak ? 'peak' : 'max'}`,
    dispatchLayout: { x: [1], y: [0] },
    dispatch: [Math.ceil(nPoints / POINTS), parts, 1],
    variableNames: ['a', 'bt', 'partStart', 'colMax'],
    uniforms: 'c : f32,',
    workgroupSize: [POINTS, 1, 1],
    getUserCode: () => `
      ${header(q)}
      fn main() {
        var s = 0.0;
        var top = 0.0;
        let at = i32(workgroupId.y) * uniforms.btShape.y + i32(workgroupId.x) * ${POINTS} + i32(localIndex);
        if (i32(workgroupId.x) * ${POINTS} + i32(localIndex) < uniforms.btShape.y) { top = colMax[at] - uniforms.c; }
        ${overSamples(q, shiftByPeak
          ? `if (z >= ${LOG_DROPPED.toFixed(9)}) { s += exp(z); } else if (kdeIsNan(z)) { s = z; }`
          : 'if (kdeIsNan(z)) { s = z; } else if (z > -3.4028234e38) { s += exp(z - top); }')}
        if (p < nPoints) { result[at] = select(s, top, kdeIsNan(top)); }
      }`,
  };
}

/** The kernel: the parts' starts uploaded, program 1 then program 2; [colMax, colSum]. */
export function kdeColumnSums(backend: WebGpuBackendLike, inputs: Record<string, tf.TensorInfo>, attrs: KdeColumnSumsAttrs): tf.TensorInfo[] {
  const { a, bt } = inputs as Record<'a' | 'bt', tf.TensorInfo>;
  const [n, q] = a!.shape as [number, number];
  const [qb, m] = bt!.shape as [number, number];
  const rows = attrs.partRows ?? [n];
  if (qb !== q || rows.reduce((t, r) => t + r, 0) !== n || rows.some((r) => !Number.isInteger(r) || r < 0)) {
    throw new Error(`KdeColumnSums: samples ${n} × ${q} in parts of ${rows.join(', ')} rows, points ${qb} × ${m}: expected matching dimensions and parts that add up to the samples`);
  }
  const starts = new Int32Array(rows.length + 1);
  rows.forEach((r, k) => (starts[k + 1] = starts[k]! + r));
  const partStart = backend.makeTensorInfo([starts.length], 'int32', starts);
  const shift = attrs.shiftByPeak ?? false;
  const c = [{ type: 'float32' as const, data: [attrs.c] }];
  try {
    const colMax = backend.runWebGPUProgram(columnMaxProgram(rows.length, m, q, shift), shift ? [] : [a!, bt!, partStart], 'float32', c);
    const colSum = backend.runWebGPUProgram(columnSumProgram(rows.length, m, q, shift), [a!, bt!, partStart, colMax], 'float32', c);
    return [colMax, colSum];
  } finally {
    backend.disposeData(partStart.dataId);
  }
}
