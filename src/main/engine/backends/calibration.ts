/**
 * What the active backend reaches on the operations the strategies are made of: a warm square
 * float32 matmul (GFLOP/s; on wasm the faster of the backend's and the engine's packed product),
 * elementwise exp (on wasm the faster of the general exp and the engine's flushed exp, which its
 * KDE, position-factor and weights kernels run) and log (G elements/s), and an elementwise add of
 * two large tensors (GB/s, both reads and the write). Each figure is the fastest of a few samples:
 * other load on the machine only ever slows a sample down and a ceiling is what the hardware
 * reaches, so the fastest is the better estimate, and steadier than a median. A sample queues
 * enough calls to take a few milliseconds, then waits for the device, so an asynchronous backend
 * is timed on its work, not its dispatch. About 0.3 s on wasm, near a second on the plain-JS cpu
 * backend. Every tensor created here is disposed.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { BackendInfo } from '../../../shared/report';
import { FLOAT32_BYTES, FLUSH_BELOW, type Calibration } from '../model';
import { flushedExp, packedProduct } from '../ops';
import { waitForDevice } from './sync';

export interface CalibrationOptions {
  /** how long one timed sample should run */
  sampleMs?: number;
  samples?: number;
  /** the matmul grows from 128 until one call takes about this long, or it reaches maxMatmulSize */
  matmulCallMs?: number;
  maxMatmulSize?: number;
  /** elements of the exp and log operands: wasm's exp runs near 0.1 G elements/s, so small */
  transcendentalSize?: number;
  /** elements of each add operand: 16 MiB, beyond the caches, so the add measures memory */
  bandwidthSize?: number;
}

/** the matmul's first size; every size it grows to is larger */
const MATMUL_START_SIZE = 128;

const DEFAULTS: Required<CalibrationOptions> = {
  sampleMs: 10,
  samples: 5,
  matmulCallMs: 12,
  maxMatmulSize: 2048,
  transcendentalSize: 1 << 18,
  bandwidthSize: 1 << 22,
};

/** calls one sample may queue, so a fast GPU op is not timed on a single dispatch */
const MAX_CALLS_PER_SAMPLE = 256;

/** Runs op `calls` times, waits for the device, and returns the milliseconds per call. */
async function timeCalls(op: () => tf.Tensor, calls: number): Promise<number> {
  const t0 = performance.now();
  let last: tf.Tensor | null = null;
  for (let i = 0; i < calls; i++) {
    last?.dispose();
    last = op();
  }
  try {
    await waitForDevice(last!);
  } finally {
    last!.dispose();
  }
  return (performance.now() - t0) / calls;
}

/**
 * Milliseconds per warm call of op: one call to warm it (kernel compile, allocation), one to
 * estimate, then the fastest of `samples` samples of enough calls to fill `sampleMs`.
 */
async function warmMsPerCall(op: () => tf.Tensor, o: Required<CalibrationOptions>): Promise<number> {
  await timeCalls(op, 1);
  const estimate = await timeCalls(op, 1);
  const calls = Math.min(MAX_CALLS_PER_SAMPLE, Math.max(1, Math.ceil(o.sampleMs / Math.max(estimate, 1e-3))));
  let fastest = Infinity;
  for (let i = 0; i < o.samples; i++) fastest = Math.min(fastest, await timeCalls(op, calls));
  return fastest;
}

/**
 * The engine's own GEMM on the wasm backend (the compensated strategy's packed product, with fused
 * multiply-adds where relaxed SIMD is on), as a matmul of a by b packed once: it outruns the
 * backend's matmul, so the ceiling is the faster of the two.
 */
function packedProductOp(a: tf.Tensor2D, b: tf.Tensor2D): { op: () => tf.Tensor; dispose: () => void } {
  const packed = packedProduct.pack(b);
  return {
    op: () => packedProduct.matMul(a, packed, b.shape[1]),
    dispose: () => tf.dispose([packed.packed, packed.flags]),
  };
}

/** Grows the matmul until one warm call takes about matmulCallMs, then measures it (the faster GEMM where the engine has its own). */
async function measureMatmul(o: Required<CalibrationOptions>): Promise<number> {
  const backendMatmul = await measureGemm(o, (a, b) => ({ op: () => tf.matMul(a, b), dispose: () => undefined }));
  return packedProduct.runsFused(MATMUL_START_SIZE) ? Math.max(backendMatmul, await measureGemm(o, packedProductOp)) : backendMatmul;
}

async function measureGemm(
  o: Required<CalibrationOptions>, make: (a: tf.Tensor2D, b: tf.Tensor2D) => { op: () => tf.Tensor; dispose: () => void },
): Promise<number> {
  let n = MATMUL_START_SIZE;
  for (;;) {
    const a = tf.randomUniform([n, n], -1, 1, 'float32', 1) as tf.Tensor2D;
    const b = tf.randomUniform([n, n], -1, 1, 'float32', 2) as tf.Tensor2D;
    const { op, dispose } = make(a, b);
    try {
      await timeCalls(op, 1);
      const callMs = await timeCalls(op, 1);
      const next = Math.min(o.maxMatmulSize, Math.round((n * Math.cbrt(o.matmulCallMs / Math.max(callMs, 1e-3))) / 64) * 64);
      if (callMs >= o.matmulCallMs / 2 || next <= n) {
        const ms = await warmMsPerCall(op, o);
        return (2 * n ** 3) / (ms * 1e6);
      }
      n = next;
    } finally {
      dispose();
      tf.dispose([a, b]);
    }
  }
}

/** G elements per second of a unary op over x. */
async function measureUnary(x: tf.Tensor, op: (t: tf.Tensor) => tf.Tensor, o: Required<CalibrationOptions>): Promise<number> {
  const ms = await warmMsPerCall(() => op(x), o);
  return x.size / (ms * 1e6);
}

/** Measures the active backend. `backend` says which one it is, for the record. */
export async function calibrateBackend(
  backend: Pick<BackendInfo, 'name' | 'device'>,
  options: CalibrationOptions = {},
): Promise<Calibration> {
  const o = { ...DEFAULTS, ...options };
  const t0 = performance.now();
  const measuredAt = new Date().toISOString();
  const matmulGflops = await measureMatmul(o);
  // exp over [−8, 0] and log over (0, 8]: no overflow, no denormals, no special cases
  const expIn = tf.linspace(-8, 0, o.transcendentalSize);
  const logIn = tf.linspace(1e-3, 8, o.transcendentalSize);
  const addIn = [tf.linspace(-1, 1, o.bandwidthSize), tf.linspace(1, 2, o.bandwidthSize)] as const;
  try {
    const generalExp = await measureUnary(expIn, tf.exp, o);
    const flushed = (x: tf.Tensor) => flushedExp.run(x, FLUSH_BELOW);
    const expGelemsPerS = flushedExp.runsFused() ? Math.max(generalExp, await measureUnary(expIn, flushed, o)) : generalExp;
    const logGelemsPerS = await measureUnary(logIn, tf.log, o);
    const addMs = await warmMsPerCall(() => tf.add(addIn[0], addIn[1]), o);
    const bandwidthGBps = (3 * FLOAT32_BYTES * o.bandwidthSize) / (addMs * 1e6);
    return {
      backend: backend.name,
      device: backend.device,
      matmulGflops,
      expGelemsPerS,
      logGelemsPerS,
      bandwidthGBps,
      measuredAt,
      durationMs: performance.now() - t0,
    };
  } finally {
    tf.dispose([expIn, logIn, ...addIn]);
  }
}
