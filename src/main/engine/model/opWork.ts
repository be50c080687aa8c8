/**
 * The work of the tfjs ops the engine calls, counted the way the engine runs them: every op reads
 * its float32 inputs and writes its output (tfjs materialises each intermediate), so bytes are the
 * sum over ops, not the data a fused kernel would need. Counting rules: a GEMM multiply-add is two
 * FLOPs; an elementwise op, a compare and each element a reduction reads are one; an exp or a log
 * is one transcendental; a scalar operand moves no bytes; reshapes, expandDims and clones are free.
 *
 * The composite counts below mirror the engine's kernels (gaussianKernel.ts, engine/ops, strategies/online.ts,
 * strategies/common.ts, logKde.ts) op for op; when one of those changes, its count changes here.
 */
import type { CountedWork } from '../../../shared/report';
import { FLOAT32_BYTES } from './constants';

/** the report's CountedWork: a stage's spans may carry their own count in that shape */
export type Work = CountedWork;

export const NO_WORK: Work = Object.freeze({ gemmFlops: 0, otherFlops: 0, exps: 0, logs: 0, bytes: 0, streamBytes: 0 });

export function addWork(...parts: Work[]): Work {
  const out = { ...NO_WORK };
  for (const w of parts) {
    out.gemmFlops += w.gemmFlops;
    out.otherFlops += w.otherFlops;
    out.exps += w.exps;
    out.logs += w.logs;
    out.bytes += w.bytes;
    out.streamBytes += w.streamBytes;
  }
  return out;
}

export function scaleWork(w: Work, times: number): Work {
  return {
    gemmFlops: w.gemmFlops * times,
    otherFlops: w.otherFlops * times,
    exps: w.exps * times,
    logs: w.logs * times,
    bytes: w.bytes * times,
    streamBytes: w.streamBytes * times,
  };
}

export function totalFlops(w: Work): number {
  return w.gemmFlops + w.otherFlops + w.exps + w.logs;
}

/** A memory-bound op reading `inElems` and writing `outElems` float32 elements. */
export function stream(inElems: number, outElems: number, flops: number): Work {
  const bytes = FLOAT32_BYTES * (inElems + outElems);
  return { ...NO_WORK, otherFlops: flops, bytes, streamBytes: bytes };
}

/** x ∘ scalar, relu, square: n in, n out. */
export const unary = (n: number): Work => stream(n, n, n);
/** a ∘ b broadcast to `out` elements. */
export const binary = (aElems: number, bElems: number, out: number): Work => stream(aElems + bElems, out, out);
/** sum or max of `inElems` elements into `outElems`. */
export const reduce = (inElems: number, outElems: number): Work => stream(inElems, outElems, inElems);
/** slice or concat: a copy. */
export const copy = (n: number): Work => stream(n, n, 0);

export function gemm(m: number, k: number, n: number): Work {
  return { ...NO_WORK, gemmFlops: 2 * m * k * n, bytes: FLOAT32_BYTES * (m * k + k * n + m * n) };
}

export const expOp = (n: number): Work => ({ ...NO_WORK, exps: n, bytes: 2 * FLOAT32_BYTES * n });
export const logOp = (n: number): Work => ({ ...NO_WORK, logs: n, bytes: 2 * FLOAT32_BYTES * n });

/**
 * The host's scatter of n float32 terms into float64 rows: the readback copy (read and write 4
 * bytes), then per term a read, a compare with the floor, and a float64 read-add-write.
 */
export function hostScatter(n: number): Work {
  const bytes = n * (2 * FLOAT32_BYTES + FLOAT32_BYTES + 16);
  return { ...NO_WORK, otherFlops: 2 * n, bytes, streamBytes: bytes };
}

/**
 * The wasm grid kernels (simd/uniformGrid.ts) over n one-dimensional samples and m evenly spaced
 * points: per entry two float64 multiplies and an add into the column sums, which stay in cache;
 * two exps per sample and one per point on the host; with `stored`, the entries written out as the
 * linear kernel (the only traffic that reaches memory). The multiplies and adds are the stage's
 * bound, so they count where the roofline rates vector arithmetic, against the calibrated matmul
 * rate (float32 lanes: float64 has half as many, so these stages reach at most half of it).
 */
export function gridKdeWork(n: number, m: number, stored: boolean): Work {
  const out = stored ? FLOAT32_BYTES * n * m : 0;
  return { ...NO_WORK, gemmFlops: 3 * n * m, exps: 2 * n + m, bytes: out + FLOAT32_BYTES * (n + m), streamBytes: out };
}

/** Work of one range split into pieces of `size`: each distinct piece length and how many there are. */
export function pieces(total: number, size: number): { length: number; count: number }[] {
  const step = Math.max(1, size);
  if (total <= 0) return [];
  const full = Math.floor(total / step);
  const rest = total - full * step;
  const out: { length: number; count: number }[] = [];
  if (full > 0) out.push({ length: step, count: full });
  if (rest > 0) out.push({ length: rest, count: 1 });
  return out;
}

/** gaussianKernel.ts logKernelDirect: (n × d) samples against (m × d) points by direct differences. */
export function logKernelDirectWork(n: number, m: number, d: number): Work {
  return addWork(
    binary(n * d, d, n * d), // samples / σ
    binary(m * d, d, m * d), // points / σ
    stream(n * d + m * d, n * m * d, 2 * n * m * d), // squared difference
    reduce(n * m * d, n * m),
    unary(n * m), // × −½
    unary(n * m), // + log normaliser
  );
}

/** gaussianKernel.ts logMarkKernelGemm for a (b × d) block against e prepared marks, with the block's row slice. */
export function markKernelGemmWork(b: number, e: number, d: number): Work {
  return addWork(
    copy(b * d), // the block's rows
    binary(b * d, d, b * d), // m = dec / σ
    unary(b * d), // m²
    reduce(b * d, b),
    gemm(b, d, e), // m · (y/σ)ᵀ
    binary(b, e, b * e), // |m|² + |y|²
    unary(b * e), // 2·cross
    binary(b * e, b * e, b * e),
    unary(b * e), // relu
    unary(b * e), // × −½
    unary(b * e), // + log normaliser
  );
}

/** tf.logSumExp of x (rows × reduced × cols) over the middle axis: max, sub, exp, sum, log, add. */
export function logSumExpWork(rows: number, reduced: number, cols: number): Work {
  const n = rows * reduced * cols;
  const out = rows * cols;
  return addWork(reduce(n, out), binary(n, out, n), expOp(n), reduce(n, out), logOp(out), binary(out, out, out));
}

/** common.ts logSumExpJoint: (b × e) mark and (e × p) position log-kernels, position tiles of `tile`. */
export function logSumExpJointWork(b: number, e: number, p: number, tile: number): Work {
  const tiles = pieces(p, tile);
  const parts: Work[] = [];
  let nTiles = 0;
  for (const t of tiles) {
    nTiles += t.count;
    const sliced = t.length < p ? copy(e * t.length) : NO_WORK;
    parts.push(scaleWork(addWork(sliced, binary(b * e, e * t.length, b * e * t.length), logSumExpWork(b, e, t.length)), t.count));
  }
  if (nTiles > 1) parts.push(copy(b * p)); // concat
  return addWork(...parts);
}

/** online.ts positionFactor of a (c × p) position log-kernel: row max, subtract, exp. */
export function positionFactorWork(c: number, p: number): Work {
  return addWork(reduce(c * p, c), binary(c * p, c, c * p), expOp(c * p));
}

/** online.ts foldCompensated of a (b × c) mark chunk into (b × p) sums; `first` has no running state. */
export function foldCompensatedWork(b: number, c: number, p: number, first: boolean): Work {
  const fold = addWork(
    reduce(b * c, c), // b_i = max over the block
    binary(c, c, c), // a + b
    unary(c), // − log E
    reduce(c, 1), // chunk max
    binary(b * c, c, b * c), // logKmark − b
    expOp(b * c),
    unary(c), // c − scale
    expOp(c),
    binary(b * c, c, b * c), // weights
    gemm(b, c, p),
  );
  if (first) return fold;
  const rescale = addWork(stream(2, 1, 1), stream(2, 1, 1), expOp(1), unary(b * p), binary(b * p, b * p, b * p));
  return addWork(fold, rescale);
}

/** online.ts finishCompensated: log Σ + M over (b × p). */
export const finishCompensatedWork = (b: number, p: number): Work => addWork(logOp(b * p), unary(b * p));

/** online.ts foldLogSumExp of two (b × p) states (only from the second chunk on). */
export function foldLogSumExpWork(b: number, p: number): Work {
  const n = b * p;
  return addWork(binary(n, n, n), binary(n, n, n), binary(n, n, n), expOp(n), expOp(n), binary(n, n, n), logOp(n), binary(n, n, n));
}

/** ops/seriesFactor.ts: W = Ψᵀ·K, F features over E encoding spikes at P bins. */
export const seriesFactorWork = (f: number, e: number, p: number): Work => gemm(f, e, p);

/**
 * ops/seriesTerms.ts for b spikes: Φ·W (b × F · F × P), then per term the clamp at 0, the log,
 * the row offset, the bias and the floor, in one pass (read Φ and W, write the terms).
 */
export function seriesTermsWork(b: number, f: number, p: number): Work {
  return addWork(gemm(b, f, p), { ...NO_WORK, otherFlops: 4 * b * p, logs: b * p });
}

/** common.ts epilogue: + bias (p), max with the floor. */
export const epilogueWork = (b: number, p: number): Work => addWork(binary(b * p, p, b * p), unary(b * p));

/** logKde.ts MAX_TILE_ELEMENTS: the fit's KDE walks its samples in tiles of this many kernel entries. */
export const LOG_KDE_TILE_ELEMENTS = 1 << 18;

/** logKde.ts: log KDE of n samples at m points in q dimensions, tile by tile with an online merge. */
export function logKdeWork(n: number, m: number, q: number): Work {
  if (n === 0 || m === 0) return NO_WORK;
  const parts: Work[] = [];
  let tilesSoFar = 0;
  for (const t of pieces(n, Math.max(1, Math.floor(LOG_KDE_TILE_ELEMENTS / m)))) {
    const tm = t.length * m;
    const tileWork = addWork(logKernelDirectWork(t.length, m, q), reduce(tm, m), binary(tm, m, tm), expOp(tm), reduce(tm, m));
    parts.push(scaleWork(tileWork, t.count));
    tilesSoFar += t.count;
  }
  // every tile after the first merges into the running max and sum: 6 binary ops and 2 exps over m
  const merges = tilesSoFar - 1;
  const merge = addWork(scaleWork(binary(m, m, m), 6), scaleWork(expOp(m), 2));
  return addWork(...parts, scaleWork(merge, merges));
}
