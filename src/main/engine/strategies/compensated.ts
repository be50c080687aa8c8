/**
 * (e) Compensated linear: a max-rescaled single matmul (kde-spec §7e). Each encoding row i gets
 * a_i = max_p logKpos and b_i = max_k logKmark over the block; with c_i = a_i + b_i − log E and
 * C* = max c_i, Σ = (exp(logKmark − b)·exp(c − C*)) · exp(logKpos − a), and log J = log Σ + C*.
 * The position factor is built once per electrode (it does not depend on the block). Where Σ
 * underflows to 0 the result is the LOG_EPS floor — never the repository's LOG_EPS substitution
 * for log J, which lifts such entries above the floor (spec §6). With an encoding tile smaller
 * than E it becomes (e′): the same fold accumulated chunk by chunk with a running scale.
 */
import * as tf from '@tensorflow/tfjs-core';
import { maxFinite, electrodeFlushIsSafe } from '../hostMath';
import { disposeMarks, logKernelDirect, prepareMarks, type PreparedMarks } from '../gaussian';
import { addWork, FLOAT32_BYTES, FLUSH_BELOW, LOG_EPS, gridKdeWork, logKernelDirectWork, NO_WORK, positionFactorWork, stream, type Work } from '../model';
import { compensatedWeights, fusedLikelihood, linearPositionKernel, packedProduct, positionFactorRows } from '../ops';
import { blockRanges, epilogue, forEachBlock, markKernelStage, sliceCols, sliceRows } from './common';
import { finishCompensated, foldCompensated, type CompensatedState } from './online';
import type { ElectrodeContext, EmitBlock, StageTools, Strategy } from './types';
import { INSTANT } from '../../../shared/traceInstants';

/**
 * Encoding spikes per chunk on the fused path: wide enough that the packed product runs near its
 * best (bench:kernels, compensated chunk fold, measures it), narrow enough that a chunk of
 * neighbouring positions leaves many of its factor's panels empty.
 */
const KERNEL_ENC_CHUNK = 4096;

/** Chunks the weights kernel takes (compensatedWeights.MIN_CHUNK_SPIKES at least): a narrower last chunk joins the one before it. */
function kernelChunks(nEnc: number, size: number): [number, number][] {
  const chunks = blockRanges(nEnc, size);
  const last = chunks[chunks.length - 1]!;
  if (chunks.length > 1 && last[1] - last[0] < compensatedWeights.MIN_CHUNK_SPIKES) {
    chunks.pop();
    chunks[chunks.length - 1]![1] = nEnc;
  }
  return chunks;
}

interface ChunkOperands {
  bt: tf.Tensor2D;
  rowMax: tf.Tensor1D;
  /** the chunk's position factor packed in panels, and which panels were stored (packedProduct.pack) */
  packed: tf.Tensor3D;
  flags: tf.Tensor1D;
}

/** Buckets of positionOrder: a chunk's positions then lie within (range / buckets) of sorted. */
const ORDER_BUCKETS = 4096;

/**
 * Encoding spikes by their first position coordinate, a counting sort into ORDER_BUCKETS equal
 * buckets between its smallest and largest finite value (each bucket in spike order, NaN and ±inf
 * last): O(E), where a comparison sort costs E log E per window. Chunks of neighbouring positions have a flushed factor that is 0 far from them, so their
 * empty panels cost no product: on a 200 cm track with a 6 cm kernel a chunk reaches about 56 cm
 * either side.
 */
export function positionOrder(positions: ArrayLike<number>, nEnc: number, dims: number): Int32Array {
  let [lo, hi] = [Infinity, -Infinity];
  for (let i = 0; i < nEnc; i++) {
    const x = positions[i * dims]!;
    if (Number.isFinite(x)) [lo, hi] = [Math.min(lo, x), Math.max(hi, x)];
  }
  const width = hi > lo ? (hi - lo) / ORDER_BUCKETS : 1;
  const bucketOf = (i: number): number => {
    const x = positions[i * dims]!;
    return Number.isFinite(x) ? Math.min(ORDER_BUCKETS - 1, Math.floor((x - lo) / width)) : ORDER_BUCKETS;
  };
  const starts = new Int32Array(ORDER_BUCKETS + 2);
  for (let i = 0; i < nEnc; i++) starts[bucketOf(i) + 1]!++;
  for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!;
  const order = new Int32Array(nEnc);
  for (let i = 0; i < nEnc; i++) order[starts[bucketOf(i)]!++] = i;
  return order;
}

/**
 * The electrode's encoding spikes in position order (positionOrder), kept with the model apart from
 * the factors so that a factor rebuilt past the memory budget does not sort again.
 */
async function encodingOrder(ctx: ElectrodeContext, stage: StageTools['stage']): Promise<{ tensors: [tf.Tensor1D]; owned: boolean }> {
  return ctx.positionKernel('position order', async () => [
    await stage('position-kernel', () => tf.tensor1d(positionOrder(ctx.encPositions.dataSync(), ctx.nEnc, ctx.encPositions.shape[1]), 'int32'), {
      work: positionOrderWork(ctx.nEnc),
    }),
  ]);
}

/** positionOrder's work: the first coordinates read, counted into buckets and the order written. */
function positionOrderWork(nEnc: number): Work {
  return stream(2 * nEnc, nEnc, 2 * nEnc);
}

/**
 * What positionFactorRows.run does for the chunks, for the roofline: per chunk the grid kernel's
 * recurrence where it takes the chunk (linearPositionKernel.onGrid, rows shifted), else the log kernel and the
 * factor's max, shift and exp.
 */
function chunkFactorsWork(ctx: ElectrodeContext, order: Int32Array, chunks: readonly [number, number][]): Work {
  const P = ctx.centers.shape[0];
  const q = ctx.encPositions.shape[1];
  const positions = ctx.encPositions.dataSync();
  const centers = ctx.centers.dataSync();
  return addWork(...chunks.map(([first, end]) => {
    const count = end - first;
    if (q === 1) {
      const rows = Float32Array.from(order.subarray(first, end), (i) => positions[i]!);
      if (linearPositionKernel.onGrid(rows, centers, q, ctx.positionStd, true)) return gridKdeWork(count, P, true);
    }
    return addWork(logKernelDirectWork(count, P, q), positionFactorWork(count, P));
  }));
}

/**
 * The position factor chunk by chunk of the encoding spikes in `order` (positionFactorRows.run),
 * packed in panels for the product; kept with the model like the whole factor. Returns the chunks'
 * row maxima, their packed factors, then their panel flags.
 */
async function chunkFactors(
  ctx: ElectrodeContext, stage: StageTools['stage'], order: tf.Tensor1D, chunks: [number, number][], flush: boolean,
): Promise<{ tensors: tf.Tensor[]; owned: boolean }> {
  const size = chunks[0]![1] - chunks[0]![0];
  return ctx.positionKernel(`stabilised factor, position order, chunks of ${size}${flush ? ', flushed' : ''}, packed`, async () =>
    stage('position-kernel', () =>
      tf.tidy(() => {
        const built = positionFactorRows.run(ctx.encPositions, order, ctx.centers, ctx.positionStd, chunks, flush);
        const packed = built.map((b) => packedProduct.pack(b.factor));
        return [...built.map((b) => b.rowMax), ...packed.map((p) => p.packed), ...packed.map((p) => p.flags)];
      }),
    { work: chunkFactorsWork(ctx, (await order.data()) as Int32Array, chunks) }),
  );
}

/**
 * What the kernel path does per block of b decoding spikes, for the roofline (the formulas of
 * stageWork.ts model the op graph, which exponentiates the weights in its reduce stage and
 * multiplies every position bin): the weights' pass (per weight the D differences, squares and
 * sums, the scale and shifts, one exp; written, then read and written again) and the product over
 * the stored panels with the running-scale fold and the final log.
 */
function kernelPathWork(nEnc: number, nFeatures: number, nBins: number, nChunks: number, macsPerSpike: number) {
  return {
    weights: (b: number): Work => ({
      ...NO_WORK, otherFlops: b * nEnc * (3 * nFeatures + 4), exps: b * nEnc, bytes: 12 * b * nEnc, streamBytes: 12 * b * nEnc,
    }),
    reduce: (b: number): Work => ({
      ...NO_WORK,
      gemmFlops: 2 * b * macsPerSpike,
      otherFlops: 3 * b * nBins * nChunks + b * nBins,
      logs: b * nBins,
      bytes: FLOAT32_BYTES * (b * nEnc + macsPerSpike + 2 * b * nBins * nChunks),
      streamBytes: FLOAT32_BYTES * 2 * b * nBins * nChunks,
    }),
  };
}

/**
 * (e′) with the fused ops: per block and encoding chunk two SIMD passes form the weights
 * exp(logKmark − b)·exp(c − C*_chunk) = exp(logKmark + a − max(logKmark + a)) from the marks by
 * direct differences (no expanded square, so no cancellation), then the packed product folds
 * each chunk into the sum with a running scale.
 */
async function runWithKernel(
  ctx: ElectrodeContext, decMarks: tf.Tensor2D, { stage, span, instant }: StageTools, emit: EmitBlock,
): Promise<void> {
  const logE = Math.log(ctx.nEnc);
  const chunks = kernelChunks(ctx.nEnc, ctx.encTileSize < ctx.nEnc ? ctx.encTileSize : KERNEL_ENC_CHUNK);
  const maxBias = maxFinite(await ctx.bias.data());
  const flush = electrodeFlushIsSafe(ctx.positionStd, ctx.waveformStd, maxBias);
  instant(INSTANT.subnormalFlush, { flush, threshold: FLUSH_BELOW, maxBias });
  const { tensors: [order], owned: orderOwned } = await encodingOrder(ctx, stage);
  let factors: { tensors: tf.Tensor[]; owned: boolean };
  let marks: PreparedMarks;
  try {
    factors = await chunkFactors(ctx, stage, order, chunks, flush);
    const sortedMarks = tf.gather(ctx.encMarks, order) as tf.Tensor2D;
    marks = prepareMarks(sortedMarks, ctx.waveformStd);
    sortedMarks.dispose();
  } finally {
    if (orderOwned) order.dispose();
  }
  const { tensors, owned } = factors;
  const n = chunks.length;
  const parts: ChunkOperands[] = chunks.map(([c0, c1], i) => ({
    bt: sliceCols(marks.scaledT, c0, c1),
    rowMax: tensors[i] as tf.Tensor1D,
    packed: tensors[n + i] as tf.Tensor3D,
    flags: tensors[2 * n + i] as tf.Tensor1D,
  }));
  const columns = ctx.centers.shape[0];
  // multiply-adds per decoding spike: each chunk's spikes against the panels it stored (8 bins each)
  const macsPerSpike = chunks.reduce((sum, [c0, c1], i) => sum + (c1 - c0) * packedProduct.COLUMNS_PER_PANEL * parts[i]!.packed.shape[0], 0);
  const work = kernelPathWork(ctx.nEnc, ctx.nFeatures, columns, chunks.length, macsPerSpike);
  const attrs: compensatedWeights.WeightsAttrs = { c: marks.logNorm, logE, flush: flush ? FLUSH_BELOW : 0 };
  try {
    await forEachBlock(decMarks.shape[0], ctx.blockSize, span, async (s0, s1) => {
      const weights = await stage('mark-kernel', () =>
        tf.tidy(() => {
          const a = tf.mul(sliceRows(decMarks, s0, s1), marks.invStd) as tf.Tensor2D;
          return parts.map((p) => compensatedWeights.run(a, p.bt, p.rowMax, attrs));
        }),
        { work: work.weights(s1 - s0) },
      );
      const logJ = await stage('reduce', () => {
        let state: CompensatedState | null = null;
        weights.forEach(([w, chunkScale], i) => {
          state = packedProduct.foldChunk(state, w, chunkScale, parts[i]!, columns);
        });
        return finishCompensated(state!);
      }, { work: work.reduce(s1 - s0) });
      tf.dispose(weights);
      const terms = epilogue(ctx, logJ);
      logJ.dispose();
      await emit(s0, terms);
    });
  } finally {
    tf.dispose(parts.map((p) => p.bt));
    disposeMarks(marks);
    if (owned) tf.dispose(tensors);
  }
}

/**
 * (e) in one fused kernel per block (ops/fusedLikelihood): the mark kernel, the factor's product,
 * log, bias and floor without the (B × E) mark kernel in device memory, a scale per spike.
 */
async function runFused(
  ctx: ElectrodeContext, decMarks: tf.Tensor2D, { stage, span }: StageTools, emit: EmitBlock,
  marks: PreparedMarks, rowMax: tf.Tensor2D, factor: tf.Tensor2D,
): Promise<void> {
  const operands: fusedLikelihood.Operands = { invStd: marks.invStd, encT: marks.scaledT, rowMax, factor, bias: ctx.bias };
  const attrs = { c: marks.logNorm, logE: Math.log(ctx.nEnc), floor: LOG_EPS };
  await forEachBlock(decMarks.shape[0], ctx.blockSize, span, async (s0, s1) => {
    const terms = await stage('reduce', () => fusedLikelihood.run(decMarks, operands, { ...attrs, first: s0, count: s1 - s0 }), {
      work: fusedLikelihood.work(s1 - s0, ctx.nEnc, ctx.nBins, ctx.nFeatures),
    });
    await emit(s0, terms);
  });
}

/** (e) / (e′) on the op graph: the GEMM form of the mark kernel, every backend. */
async function runOpGraph(
  ctx: ElectrodeContext, decMarks: tf.Tensor2D, { stage, span }: StageTools, emit: EmitBlock,
  marks: PreparedMarks, rowMax: tf.Tensor2D, factor: tf.Tensor2D,
): Promise<void> {
  const logE = Math.log(ctx.nEnc);
  const chunks = blockRanges(ctx.nEnc, ctx.encTileSize >= ctx.nEnc ? ctx.nEnc : ctx.encTileSize);
  await forEachBlock(decMarks.shape[0], ctx.blockSize, span, async (s0, s1) => {
    const logKmark = await markKernelStage(stage, marks, decMarks, s0, s1);
    const logJ = await stage('reduce', () => {
      let state: CompensatedState | null = null;
      for (const [c0, c1] of chunks) {
        const whole = chunks.length === 1;
        const part = tf.tidy(() => ({
          mark: whole ? tf.clone(logKmark) : sliceCols(logKmark, c0, c1),
          max: whole ? tf.clone(rowMax) : sliceCols(rowMax, c0, c1),
          factor: whole ? tf.clone(factor) : sliceRows(factor, c0, c1),
        }));
        state = foldCompensated(state, part.mark, part.max, part.factor, logE);
        tf.dispose([part.mark, part.max, part.factor]);
      }
      return finishCompensated(state!);
    });
    logKmark.dispose();
    const terms = epilogue(ctx, logJ);
    logJ.dispose();
    await emit(s0, terms);
  });
}

export const compensated: Strategy = {
  async run(ctx, decMarks, tools, emit) {
    const { stage } = tools;
    if (compensatedWeights.runsFused(ctx.nEnc)) {
      await runWithKernel(ctx, decMarks, tools, emit);
      return;
    }
    const marks = prepareMarks(ctx.encMarks, ctx.waveformStd);
    try {
      const { tensors: [rowMax, factor], owned } = await ctx.positionKernel('stabilised factor', async () => {
        const f = await stage('position-kernel', () =>
          tf.tidy(() => positionFactorRows.fromLogKernel(logKernelDirect(ctx.encPositions, ctx.centers, ctx.positionStd))),
        );
        return [f.rowMax, f.factor];
      });
      try {
        if (fusedLikelihood.runsFused(ctx.nEnc, ctx.nBins, ctx.nFeatures)) await runFused(ctx, decMarks, tools, emit, marks, rowMax, factor);
        else await runOpGraph(ctx, decMarks, tools, emit, marks, rowMax, factor);
      } finally {
        if (owned) tf.dispose([rowMax, factor]);
      }
    } finally {
      disposeMarks(marks);
    }
  },
};
