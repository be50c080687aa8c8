/**
 * The series strategy's exact handoff where positions are one-dimensional: decoding spikes its mark
 * series does not reach (on real tetrode marks, all of them) take every mark kernel entry, as the
 * compensated strategy does, but not the (E × P) position kernel. Within a cell of the plan
 * (interpolationPlan.ts) the position kernel is a smooth function of the spike's position, so it is
 * interpolated at INTERPOLATION_NODES Chebyshev nodes:
 *   K(x_i − b_p) ≈ Σ_j L_j(x_i)·K(ξ_j − b_p),  L_j the cell's Lagrange basis,
 * and J[k, p] = (1/E) Σ_i Kmark[k, i]·Kpos[i, p] becomes per cell Σ_j (Σ_i Kmark[k, i]·L_j(x_i))·K(ξ_j − b_p):
 * 8 multiply-adds per mark kernel entry instead of one per bin the entry reaches, and the weights
 * never go to memory (the interpolatedTerms op). The error bound is interpolationBound.ts'; mark
 * kernel entries below e^−87 of their normaliser count as e^−87 (the kernel's exp stays in the
 * normal range), less than that bound allows.
 */
import * as tf from '@tensorflow/tfjs-core';
import { maxFinite, electrodeFlushIsSafe, electrodeFlushThreshold, logNormaliser } from '../../hostMath';
import { EPS, FLOAT32_BYTES, LOG_EPS, NO_WORK, type Work } from '../../model';
import { interpolatedTerms } from '../../ops';
import { forEachBlock, sliceRows } from '../common';
import type { ElectrodeContext, Strategy } from '../types';
import { INTERPOLATION_NODES, INTERPOLATION_WIDTH, positionReach, projectionReach } from './interpolationBound';
import { LANES } from './interpolationGeometry';
import {
  H_SCALE_LOG2, interpolationCells, MARK_SCALE, MAX_INTERPOLATION_CELLS, planInterpolation, type PlanSize,
} from './interpolationPlan';

function allFinite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) return false;
  return true;
}

/**
 * Whether the interpolated handoff runs for this electrode and these decoding marks (the encoding
 * and decoding marks as the caller already holds them on the host, row-major): the wasm
 * kernels, one position dimension, spikes to interpolate, finite positions, marks and bins (a
 * non-finite one spreads to every bin in the exact product, which a cell's bins cannot mirror), a
 * range of positions of at most MAX_INTERPOLATION_CELLS cells, and a flush that model/flush.ts
 * shows to be safe at the electrode's largest bias.
 */
export async function interpolationApplies(ctx: ElectrodeContext, encMarks: ArrayLike<number>, decMarks: ArrayLike<number>): Promise<boolean> {
  if (!interpolatedTerms.runsFused() || ctx.encPositions.shape[1] !== 1 || ctx.nEnc < 1 || ctx.nBins < 1 || ctx.positionStd.length !== 1) return false;
  const maxBias = maxFinite(await ctx.bias.data());
  if (!electrodeFlushIsSafe(ctx.positionStd, ctx.waveformStd, maxBias)) return false;
  const [positions, centers] = await Promise.all([ctx.encPositions.data(), ctx.centers.data()]);
  return (
    allFinite(positions) && allFinite(encMarks) && allFinite(centers) && allFinite(decMarks) && ctx.positionStd[0]! > 0 &&
    interpolationCells(positions, ctx.nEnc, ctx.positionStd[0]!) <= MAX_INTERPOLATION_CELLS
  );
}

/** The plan's build, for the roofline: a pass over the spikes (cell, marks, 8 basis values) and an exp per node and reached bin. */
function planWork(nEnc: number, nFeatures: number, nBins: number, cellsAtMost: number): Work {
  const T = INTERPOLATION_NODES;
  const out = FLOAT32_BYTES * nEnc * (nFeatures + T);
  return { ...NO_WORK, otherFlops: nEnc * (4 * T + 2 * nFeatures + 4), exps: cellsAtMost * T * nBins, bytes: out + FLOAT32_BYTES * nEnc * (1 + nFeatures), streamBytes: out };
}

/**
 * One block of b rows in the kernel: per weight it formed (the spike vectors its rows took, which the
 * kernel counts: the vectors out of a row's reach cost nothing) the D differences and squares, one
 * exp and 8 multiply-adds into the cell's sums; per row and cell the projection, the two searches,
 * the sums' lane totals and 8 multiply-adds per bin it reaches; per row the log and the epilogue.
 * The cells' spikes are read once per block (they stay in cache over its rows).
 */
function blockWork(b: number, plan: PlanSize, nFeatures: number, vectorsTaken: number): Work {
  const T = INTERPOLATION_NODES;
  const weights = LANES * vectorsTaken;
  const m = plan.binVectors * LANES;
  return {
    ...NO_WORK,
    gemmFlops: 2 * T * (weights + b * LANES * plan.storedBinVectors),
    otherFlops: weights * (3 * nFeatures + 4) + b * plan.cells * (T * 2 * LANES + 2 * nFeatures + 30) + 4 * b * m,
    exps: weights,
    logs: b * m,
    bytes: FLOAT32_BYTES * (plan.spikeFloats + plan.hFloats + b * nFeatures + 2 * b * m),
    streamBytes: FLOAT32_BYTES * (plan.spikeFloats + plan.hFloats),
  };
}

const PLAN_KIND = `position interpolation, ${INTERPOLATION_NODES} nodes per ${INTERPOLATION_WIDTH} widths, marks in cell and projection order`;

/**
 * The handoff itself, for electrodes where interpolationApplies: the plan (kept with the model like a
 * position kernel, so the windows of a decode reuse it), then one kernel call per block.
 */
export const interpolated: Strategy = {
  async run(ctx, decMarks, { stage, span }, emit) {
    const D = ctx.nFeatures;
    // one τ for both sides: bins beyond positionReach and weights beyond projectionReach drop below it
    const tau = electrodeFlushThreshold(ctx.positionStd, ctx.waveformStd, maxFinite(await ctx.bias.data()));
    const binReach = positionReach(tau);
    const { tensors, owned } = await ctx.positionKernel(`${PLAN_KIND}, bins within ${binReach.toFixed(3)} widths`, async () => {
      const [positions, marks, centers] = await Promise.all([ctx.encPositions.data(), ctx.encMarks.data(), ctx.centers.data()]);
      const cellsAtMost = Math.min(ctx.nEnc, interpolationCells(positions, ctx.nEnc, ctx.positionStd[0]!));
      return stage('position-kernel', () => {
        const plan = planInterpolation(positions, marks, ctx.nEnc, D, centers, ctx.positionStd[0]!, ctx.waveformStd, binReach);
        const z = plan.size;
        const counts = Int32Array.of(z.cells, z.spikeVectors, z.binVectors, z.storedBinVectors, z.spikeFloats, z.hFloats);
        // the counts travel with the tensors, for a later call that finds them kept
        return [
          tf.tensor1d(plan.spikes), tf.tensor2d(plan.chunks, [z.cells, 5], 'int32'), tf.tensor1d(plan.h), tf.tensor1d(counts, 'int32'),
          tf.tensor1d(plan.direction), tf.tensor1d(plan.bounds),
        ];
      }, { work: planWork(ctx.nEnc, D, ctx.nBins, cellsAtMost) });
    });
    const [spikes, chunks, h, counts, direction, bounds] = tensors as [tf.Tensor1D, tf.Tensor2D, tf.Tensor1D, tf.Tensor1D, tf.Tensor1D, tf.Tensor1D];
    try {
      const [cells, spikeVectors, binVectors, storedBinVectors, spikeFloats, hFloats] = (await counts.data()) as unknown as number[];
      const shape: PlanSize = { cells: cells!, spikeVectors: spikeVectors!, binVectors: binVectors!, storedBinVectors: storedBinVectors!, spikeFloats: spikeFloats!, hFloats: hFloats! };
      const m = shape.binVectors * LANES;
      const sd = ctx.waveformStd.map((s) => Math.max(s, EPS));
      const attrs: interpolatedTerms.TermsAttrs = {
        off: logNormaliser(sd) + logNormaliser(ctx.positionStd) - Math.log(ctx.nEnc) - H_SCALE_LOG2 * Math.LN2,
        floor: LOG_EPS,
        reach: projectionReach(tau),
      };
      const invStd = tf.tensor1d(sd.map((s) => MARK_SCALE / s));
      const bias = m === ctx.nBins ? ctx.bias : tf.pad(ctx.bias, [[0, m - ctx.nBins]]);
      try {
        await forEachBlock(decMarks.shape[0], ctx.blockSize, span, async (s0, s1) => {
          // the kernel says how many spike vectors it took; the recorder reads a span's args when it closes
          const args: { work: Work } = { work: blockWork(s1 - s0, shape, D, 0) };
          const terms = await stage('reduce', () =>
            tf.tidy(() => {
              const a = tf.mul(sliceRows(decMarks, s0, s1), invStd) as tf.Tensor2D;
              const [out, taken] = interpolatedTerms.run(a, { spikes, chunks, h, direction, bounds }, bias, attrs);
              args.work = blockWork(s1 - s0, shape, D, taken.dataSync()[0]!);
              return m === ctx.nBins ? out : tf.slice(out, [0, 0], [s1 - s0, ctx.nBins]);
            }),
            args,
          );
          await emit(s0, terms);
        });
      } finally {
        invStd.dispose();
        if (bias !== ctx.bias) bias.dispose();
      }
    } finally {
      if (owned) tf.dispose(tensors);
    }
  },
};
