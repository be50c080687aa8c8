/**
 * The engine's own strategy, beside the six of kde-spec §7: the mark kernel as a truncated Taylor
 * series (markSeries.ts), so J = Kmark·Kpos / E becomes features (B × F) times a factor (F × P)
 * built once per electrode and kept with the model like a position kernel; every covered entry is
 * within SERIES_RELATIVE_ERROR (relative, before the log) of the exact sum. Decoding spikes outside
 * the series' proven reach go to the compensated strategy (D ≤ 8: the faster exact one on wasm, and
 * the better conditioned on marks spread over many widths) — on one-dimensional positions its form
 * that interpolates the position kernel (positionInterpolation.ts), where that applies — or above 8
 * features to the linear reference's direct product in the same block. An electrode with no spike
 * in reach (real tetrode marks) is handed whole to that handoff.
 */
import * as tf from '@tensorflow/tfjs-core';
import { logNormaliser } from '../kernelNormalisers';
import { kernelDirect } from '../kernels';
import { COMPENSATED_MAX_FEATURES } from '../model';
import type { Work } from '../model/opWork';
import { seriesFactor, seriesGroundFactor, seriesTerms } from '../ops';
import { linearMarkKernelWork, linearReduceWork } from '../model/stageWork';
import { epilogue, forEachBlock, gatherHostRows, linearPositionKernelOf } from './common';
import { compensated } from './compensated';
import { planSeries, scaledRow, seriesFeatures, type SeriesPlan } from './markSeries';
import { interpolated, interpolationApplies } from './positionInterpolation';
import type { ElectrodeContext, StageTools, Strategy } from './types';

/** Features padded with zero columns to a multiple of 4: the SIMD factor kernel takes four at a time. */
function paddedFeatureCount(plan: SeriesPlan): number {
  return Math.ceil(plan.basis.nFeatures / 4) * 4;
}

/** Ψ (E × Fpad) on the host: row i is e^{−½|b_i|²}·b_i^α/√α!, then zeros. */
function encodingFeatures(plan: SeriesPlan, encMarks: Float32Array, nEnc: number): Float32Array {
  const F = plan.basis.nFeatures;
  const Fp = paddedFeatureCount(plan);
  const row = new Float64Array(plan.centre.length);
  const feat = new Float64Array(F);
  const out = new Float32Array(Fp * nEnc);
  for (let i = 0; i < nEnc; i++) {
    const w = Math.exp(-0.5 * scaledRow(plan, encMarks, i, row));
    seriesFeatures(plan.basis, row, feat, 0);
    for (let a = 0; a < F; a++) out[i * Fp + a] = w * feat[a]!;
  }
  return out;
}

/** The position cache's name for an electrode's series factor of this plan's order. */
export function seriesFactorKind(plan: SeriesPlan): string {
  return `series ${plan.basis.order}`;
}

/** Ψ (nEnc × Fpad) as a tensor, from the encoding marks as float32 (encHost, nEnc × D). */
function encodingFeaturesTensor(plan: SeriesPlan, encHost: Float32Array, nEnc: number): tf.Tensor2D {
  return tf.tensor2d(encodingFeatures(plan, encHost, nEnc), [nEnc, paddedFeatureCount(plan)]);
}

/**
 * W (Fpad × P) of an electrode from its encoding marks as float32 (encHost, nEnc × D) and its linear
 * position kernel: built by the fit that keeps it, or by a predict that finds none kept.
 */
export function buildSeriesFactor(plan: SeriesPlan, encHost: Float32Array, nEnc: number, kpos: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => seriesFactor.run(encodingFeaturesTensor(plan, encHost, nEnc), kpos));
}

/** Whether groundDensityAndSeriesFactor runs here for this many bins. */
export function canFuseSeriesFit(nBins: number): boolean {
  return seriesGroundFactor.runsFused(nBins);
}

/**
 * What a fit for series needs from an electrode's linear position kernel, without the kernel: its
 * column maxima and sums (the ground process, as linearPositionKernel gives them) and the series
 * factor (as buildSeriesFactor gives it), bit for bit, in one pass of the fused seriesGroundFactor op over cache-
 * sized tiles of kernel rows. Only where canFuseSeriesFit says so, for at least one position;
 * elsewhere the caller builds the kernel, then the factor.
 */
export function groundDensityAndSeriesFactor(
  positions: tf.Tensor2D, centers: tf.Tensor2D, std: number[], flush: boolean, plan: SeriesPlan, encHost: Float32Array,
): { colMax: tf.Tensor1D; colSum: tf.Tensor1D; factor: tf.Tensor2D } {
  const psi = encodingFeaturesTensor(plan, encHost, positions.shape[0]);
  try {
    return seriesGroundFactor.run(positions, centers, std, flush, psi);
  } finally {
    psi.dispose();
  }
}

/** Bytes of the series factor of this plan over nBins bins. */
export function seriesFactorBytes(plan: SeriesPlan, nBins: number): number {
  return paddedFeatureCount(plan) * nBins * Float32Array.BYTES_PER_ELEMENT;
}

/** The work of buildSeriesFactor, for the span it runs in. */
export function buildSeriesFactorWork(plan: SeriesPlan, nEnc: number, nBins: number): Work {
  return seriesFactor.work(paddedFeatureCount(plan), nEnc, nBins);
}

/** ℓ (far × P, row-major) of the decoding spikes `far` (out of reach), in that order, by `exact` (compensated or its interpolated form). */
async function exactTerms(exact: Strategy, ctx: ElectrodeContext, decHost: Float32Array, far: number[], tools: StageTools): Promise<Float32Array> {
  const P = ctx.nBins;
  const out = new Float32Array(far.length * P);
  const farMarks = tf.tensor2d(gatherHostRows(decHost, far, ctx.nFeatures), [far.length, ctx.nFeatures]);
  try {
    await exact.run(ctx, farMarks, tools, async (start, terms) => {
      try {
        out.set((await terms.data()) as Float32Array, start * P);
      } finally {
        terms.dispose();
      }
    });
  } finally {
    farMarks.dispose();
  }
  return out;
}

export const series: Strategy = {
  async run(ctx, decMarks, tools, emit) {
    const { stage, span, instant } = tools;
    const encHost = (await ctx.encMarks.data()) as Float32Array;
    const decHost = (await decMarks.data()) as Float32Array;
    const plan = planSeries(encHost, ctx.nEnc, ctx.waveformStd);
    const D = ctx.nFeatures;
    const F = paddedFeatureCount(plan);
    const nDec = decMarks.shape[0];
    // which decoding spikes the series covers, and each one's log offset logC − ½|a|² − log E
    const near = new Uint8Array(nDec);
    const offset = new Float64Array(nDec);
    const row = new Float64Array(D);
    // log Π_j 1/(σ_j √2π) − log E: the per-electrode constant of the series' log
    const scale = logNormaliser(ctx.waveformStd) - Math.log(ctx.nEnc);
    const far: number[] = [];
    for (let k = 0; k < nDec; k++) {
      const sq = scaledRow(plan, decHost, k, row);
      near[k] = !plan.direct && Math.sqrt(sq) <= plan.maxDecodingRadius ? 1 : 0;
      offset[k] = scale - 0.5 * sq;
      if (!near[k]) far.push(k);
    }
    const nFar = far.length;
    // what the direct spikes run: compensated (D ≤ 8) — on one-dimensional positions its interpolated
    // form where that applies (positionInterpolation.ts) — else the reference in the same blocks
    const viaCompensated = D <= COMPENSATED_MAX_FEATURES;
    const interpolate = viaCompensated && nFar > 0 && (await interpolationApplies(ctx, encHost, decHost));
    const exact = interpolate ? interpolated : compensated;

    // what the trace needs to explain a series run's speed: how many spikes the bound let through
    instant('series coverage', {
      order: plan.basis.order,
      features: plan.basis.nFeatures,
      series: nDec - nFar,
      direct: nFar,
      directBy: interpolate ? 'compensated, position interpolated' : viaCompensated ? 'compensated' : 'reference',
      reach: plan.direct ? 0 : Number.isFinite(plan.maxDecodingRadius) ? plan.maxDecodingRadius : 'unbounded',
      encodingRadius: plan.encodingRadius,
    });
    if (nFar === nDec && viaCompensated) {
      await exact.run(ctx, decMarks, tools, emit);
      return;
    }
    // the spikes out of reach, all at once through compensated or its interpolated form (the faster
    // exact strategy on wasm, and the better conditioned one on marks spread over many widths); their
    // terms wait on the host
    const farTerms = nFar > 0 && viaCompensated ? await exactTerms(exact, ctx, decHost, far, tools) : null;
    const farRank = new Int32Array(nDec);
    far.forEach((k, r) => (farRank[k] = r));
    // the linear position kernel only when something needs it: the fit for series keeps the factor
    // instead (then nothing does, unless spikes beyond reach take the reference's direct product)
    let kernel: { tensors: [tf.Tensor2D]; owned: boolean } | undefined;
    const kposNow = async (): Promise<tf.Tensor2D> => (kernel ??= await linearPositionKernelOf(ctx, stage)).tensors[0];
    let factor: { tensors: tf.Tensor[]; owned: boolean } | undefined;
    try {
      if (nFar < nDec) {
        factor = await ctx.positionKernel(seriesFactorKind(plan), async () => {
          const kpos = await kposNow();
          return [await stage('series-factor', () => buildSeriesFactor(plan, encHost, ctx.nEnc, kpos), { work: buildSeriesFactorWork(plan, ctx.nEnc, ctx.nBins) })];
        });
      }
      if ((nFar === 0 || farTerms) && kernel?.owned) {
        kernel.tensors[0].dispose();
        kernel = { ...kernel, owned: false };
      }
      const W = factor?.tensors[0] as tf.Tensor2D | undefined;
      // the wasm terms kernel reads the first features' rows of W, so the zero padding needs no product
      const termFeatures = seriesTerms.runsFused(ctx.nBins) ? plan.basis.nFeatures : F;

      await forEachBlock(nDec, ctx.blockSize, span, async (s0, s1) => {
        const nearRows: number[] = [];
        const farRows: number[] = [];
        for (let k = s0; k < s1; k++) (near[k] ? nearRows : farRows).push(k);
        const parts: tf.Tensor2D[] = [];
        try {
          if (nearRows.length > 0) {
            const feats = new Float32Array(nearRows.length * termFeatures);
            const offs = new Float32Array(nearRows.length);
            nearRows.forEach((k, r) => {
              scaledRow(plan, decHost, k, row);
              seriesFeatures(plan.basis, row, feats, r * termFeatures);
              offs[r] = offset[k]!;
            });
            parts.push(
              await stage('reduce', () =>
                tf.tidy(() => seriesTerms.run(ctx.bias, tf.tensor2d(feats, [nearRows.length, termFeatures]), W!, tf.tensor1d(offs))),
                { work: seriesTerms.work(nearRows.length, termFeatures, ctx.nBins) },
              ),
            );
          }
          if (farRows.length > 0 && farTerms) {
            parts.push(tf.tensor2d(gatherHostRows(farTerms, farRows.map((k) => farRank[k]!), ctx.nBins), [farRows.length, ctx.nBins]));
          } else if (farRows.length > 0) {
            const kpos = await kposNow();
            const kmark = await stage('mark-kernel', () =>
              tf.tidy(() => {
                const rows = tf.tensor2d(gatherHostRows(decHost, farRows, D), [farRows.length, D]);
                return kernelDirect(rows, ctx.encMarks, ctx.waveformStd);
              }),
              { work: linearMarkKernelWork(farRows.length, ctx.nEnc, D) },
            );
            parts.push(
              await stage('reduce', () =>
                tf.tidy(() => epilogue(ctx, tf.log(tf.div(tf.matMul(kmark, kpos), ctx.nEnc)) as tf.Tensor2D)),
                { work: linearReduceWork(farRows.length, ctx.nEnc, ctx.nBins) },
              ),
            );
            kmark.dispose();
          }
          if (parts.length === 1) {
            await emit(s0, parts.pop()!);
            return;
          }
          // rows back in order: the near rows came first, then the far ones
          const position = new Int32Array(s1 - s0);
          [...nearRows, ...farRows].forEach((k, i) => (position[k - s0] = i));
          const merged = tf.tidy(() => tf.gather(tf.concat(parts, 0), tf.tensor1d(position, 'int32')) as tf.Tensor2D);
          await emit(s0, merged);
        } finally {
          tf.dispose(parts);
        }
      });
    } finally {
      if (factor?.owned) tf.dispose(factor.tensors);
      if (kernel?.owned) kernel.tensors[0].dispose();
    }
  },
};
