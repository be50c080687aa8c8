/**
 * The engine's own strategy, beside the six of kde-spec §7: the mark kernel as a truncated Taylor
 * series (plan.ts), so J = Kmark·Kpos / E becomes features (B × F) times a factor (F × P)
 * built once per electrode and kept with the model like a position kernel; every covered entry is
 * within SERIES_RELATIVE_ERROR (relative, before the log) of the exact sum. Decoding spikes outside
 * the series' proven reach go to the compensated strategy (D ≤ 8: the faster exact one on wasm, and
 * the better conditioned on marks spread over many widths) — on one-dimensional positions its form
 * that interpolates the position kernel (interpolated.ts), where that applies — or above 8
 * features to the linear reference's direct product in the same block. An electrode with no spike
 * in reach (real tetrode marks) is handed whole to that handoff. A fit for series keeps the factor
 * instead of the position kernel (fitKeep.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import { logNormaliser } from '../../hostMath';
import { kernelDirect } from '../../gaussian';
import { COMPENSATED_MAX_FEATURES, linearMarkKernelWork, linearReduceWork } from '../../model';
import { seriesTerms } from '../../ops';
import { epilogue, forEachBlock, gatherHostRows, linearPositionKernelOf } from '../common';
import { compensated } from '../compensated';
import type { ElectrodeContext, EmitBlock, StageTools, Strategy } from '../types';
import { buildSeriesFactor, buildSeriesFactorWork, paddedFeatureCount, seriesFactorKind } from './factor';
import { seriesFitKeep } from './fitKeep';
import { interpolated, interpolationApplies } from './interpolated';
import { planSeries, scaledRow, seriesFeatures, type SeriesPlan } from './plan';
import { INSTANT } from '../../../../shared/traceInstants';

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

/** Which decoding spikes the series covers, each one's log offset logC − ½|a|² − log E, and the others in order. */
function seriesCoverage(plan: SeriesPlan, ctx: ElectrodeContext, decHost: Float32Array, nDec: number): { near: Uint8Array; offset: Float64Array; far: number[] } {
  const near = new Uint8Array(nDec);
  const offset = new Float64Array(nDec);
  const row = new Float64Array(ctx.nFeatures);
  // log Π_j 1/(σ_j √2π) − log E: the per-electrode constant of the series' log
  const scale = logNormaliser(ctx.waveformStd) - Math.log(ctx.nEnc);
  const far: number[] = [];
  for (let k = 0; k < nDec; k++) {
    const sq = scaledRow(plan, decHost, k, row);
    near[k] = !plan.direct && Math.sqrt(sq) <= plan.maxDecodingRadius ? 1 : 0;
    offset[k] = scale - 0.5 * sq;
    if (!near[k]) far.push(k);
  }
  return { near, offset, far };
}

/** What a series run's blocks read: the plan, the spikes on the host, their offsets, the factor and the far spikes' terms. */
interface SeriesBlocks {
  ctx: ElectrodeContext;
  tools: StageTools;
  plan: SeriesPlan;
  decHost: Float32Array;
  offset: Float64Array;
  /** the features each near row takes: the fused terms op reads the first features' rows of W, so the zero padding needs no product */
  termFeatures: number;
  factor: tf.Tensor2D | undefined;
  /** ℓ of the far spikes already computed by the exact handoff, by their rank among the far spikes; null: the direct product */
  farTerms: Float32Array | null;
  farRank: Int32Array;
  kposNow: () => Promise<tf.Tensor2D>;
}

/** ℓ of a block's near rows through the series terms op. */
function nearTerms(run: SeriesBlocks, rows: number[]): Promise<tf.Tensor2D> {
  const { ctx, plan, termFeatures } = run;
  const feats = new Float32Array(rows.length * termFeatures);
  const offs = new Float32Array(rows.length);
  const row = new Float64Array(ctx.nFeatures);
  rows.forEach((k, r) => {
    scaledRow(plan, run.decHost, k, row);
    seriesFeatures(plan.basis, row, feats, r * termFeatures);
    offs[r] = run.offset[k]!;
  });
  return run.tools.stage('reduce', () =>
    tf.tidy(() => seriesTerms.run(ctx.bias, tf.tensor2d(feats, [rows.length, termFeatures]), run.factor!, tf.tensor1d(offs))),
    { work: seriesTerms.work(rows.length, termFeatures, ctx.nBins) },
  );
}

/** ℓ of a block's far rows: the exact handoff's terms gathered, or the reference's direct product above 8 features. */
async function farTerms(run: SeriesBlocks, rows: number[]): Promise<tf.Tensor2D> {
  const { ctx, tools: { stage } } = run;
  if (run.farTerms) {
    return tf.tensor2d(gatherHostRows(run.farTerms, rows.map((k) => run.farRank[k]!), ctx.nBins), [rows.length, ctx.nBins]);
  }
  const D = ctx.nFeatures;
  const kpos = await run.kposNow();
  const kmark = await stage('mark-kernel', () =>
    tf.tidy(() => {
      const marks = tf.tensor2d(gatherHostRows(run.decHost, rows, D), [rows.length, D]);
      return kernelDirect(marks, ctx.encMarks, ctx.waveformStd);
    }),
    { work: linearMarkKernelWork(rows.length, ctx.nEnc, D) },
  );
  const terms = await stage('reduce', () =>
    tf.tidy(() => epilogue(ctx, tf.log(tf.div(tf.matMul(kmark, kpos), ctx.nEnc)) as tf.Tensor2D)),
    { work: linearReduceWork(rows.length, ctx.nEnc, ctx.nBins) },
  );
  kmark.dispose();
  return terms;
}

/** One block [s0, s1): its near rows by the series, its far rows as farTerms says, emitted in row order. */
async function seriesBlock(run: SeriesBlocks, near: Uint8Array, s0: number, s1: number, emit: EmitBlock): Promise<void> {
  const nearRows: number[] = [];
  const farRows: number[] = [];
  for (let k = s0; k < s1; k++) (near[k] ? nearRows : farRows).push(k);
  const parts: tf.Tensor2D[] = [];
  try {
    if (nearRows.length > 0) parts.push(await nearTerms(run, nearRows));
    if (farRows.length > 0) parts.push(await farTerms(run, farRows));
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
}

/** The trace's marker of what the bound let through: what explains a series run's speed. */
function coverageMarker(plan: SeriesPlan, nDec: number, nFar: number, directBy: string): Record<string, unknown> {
  return {
    order: plan.basis.order,
    features: plan.basis.nFeatures,
    series: nDec - nFar,
    direct: nFar,
    directBy,
    reach: plan.direct ? 0 : Number.isFinite(plan.maxDecodingRadius) ? plan.maxDecodingRadius : 'unbounded',
    encodingRadius: plan.encodingRadius,
  };
}

export { seriesReach } from './reach';

export const series: Strategy = {
  fitKeep: seriesFitKeep,

  async run(ctx, decMarks, tools, emit) {
    const encHost = (await ctx.encMarks.data()) as Float32Array;
    const decHost = (await decMarks.data()) as Float32Array;
    const plan = planSeries(encHost, ctx.nEnc, ctx.waveformStd);
    const nDec = decMarks.shape[0];
    const { near, offset, far } = seriesCoverage(plan, ctx, decHost, nDec);
    const nFar = far.length;
    // what the direct spikes run: compensated (D ≤ 8) — on one-dimensional positions its interpolated
    // form where that applies (interpolated.ts) — else the reference in the same blocks
    const viaCompensated = ctx.nFeatures <= COMPENSATED_MAX_FEATURES;
    const interpolate = viaCompensated && nFar > 0 && (await interpolationApplies(ctx, encHost, decHost));
    const exact = interpolate ? interpolated : compensated;
    tools.instant(INSTANT.seriesCoverage, coverageMarker(plan, nDec, nFar, interpolate ? 'compensated, position interpolated' : viaCompensated ? 'compensated' : 'reference'));
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
    const kposNow = async (): Promise<tf.Tensor2D> => (kernel ??= await linearPositionKernelOf(ctx, tools.stage)).tensors[0];
    let factor: { tensors: tf.Tensor[]; owned: boolean } | undefined;
    try {
      if (nFar < nDec) {
        factor = await ctx.positionKernel(seriesFactorKind(plan), async () => {
          const kpos = await kposNow();
          return [await tools.stage('series-factor', () => buildSeriesFactor(plan, encHost, ctx.nEnc, kpos), { work: buildSeriesFactorWork(plan, ctx.nEnc, ctx.nBins) })];
        });
      }
      if ((nFar === 0 || farTerms) && kernel?.owned) {
        kernel.tensors[0].dispose();
        kernel = { ...kernel, owned: false };
      }
      const termFeatures = seriesTerms.runsFused(ctx.nBins) ? plan.basis.nFeatures : paddedFeatureCount(plan);
      const blocks: SeriesBlocks = {
        ctx, tools, plan, decHost, offset, termFeatures, factor: factor?.tensors[0] as tf.Tensor2D | undefined, farTerms, farRank, kposNow,
      };
      await forEachBlock(nDec, ctx.blockSize, tools.span, (s0, s1) => seriesBlock(blocks, near, s0, s1, emit));
    } finally {
      if (factor?.owned) tf.dispose(factor.tensors);
      if (kernel?.owned) kernel.tensors[0].dispose();
    }
  },
};
