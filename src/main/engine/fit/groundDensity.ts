/**
 * An electrode's ground-process density log g_e at the bins (kde-spec §3) as the fit computes it,
 * and what it keeps for the predicts that follow: the strategy's say (Strategy.fitKeep) decides
 * between its own factor in one fused pass, the linear position kernel (then, where asked, a
 * factor in its place) and nothing, within the fit's byte budget.
 */
import * as tf from '@tensorflow/tfjs-core';
import { INSTANT } from '../../../shared/traceInstants';
import type { FitContext, FittedElectrode } from './fit';
import { toTensor2d, logKdePending, logKdeWorkOf } from '../gaussian';
import { pendingRead, type PendingRead } from '../readback';
import { electrodeFlushIsSafe, electrodeBias, maxFinite } from '../hostMath';
import { addWork, FLOAT32_BYTES, gridKdeWork, logKdeWork, type Work } from '../model';
import { linearPositionKernel } from '../ops';
import type { FitKeep } from '../strategies';

/**
 * log g_e, keeping for the predicts that follow what the strategy asks (FitKeep) where the budget
 * allows and positions and bins are finite: its factor in one fused pass, or the linear kernel
 * (then, where asked, its factor in the kernel's place); else the KDE alone, nothing kept. Its sums
 * are left on the device: the fit reads every electrode's in one readback at its end rather than
 * one round trip each.
 */
export async function groundDensity(ctx: FitContext, fitted: FittedElectrode, tensors: tf.Tensor[]): Promise<PendingRead<Float64Array>> {
  const { nEnc, encPositions } = fitted;
  const centers = ctx.dataset.placeBinCenters;
  const keeper = nEnc > 0 ? ctx.fitKeep({ encFeatures: fitted.encFeatures, nEnc, waveformStd: fitted.waveformStd, nBins: ctx.nBins }) : null;
  const kernelBytes = nEnc * ctx.nBins * FLOAT32_BYTES;
  const keptBytes = keeper?.fused?.bytes ?? kernelBytes;
  const kept = keeper !== null && keeper.wanted && keptBytes <= ctx.keepBudgetBytes && !encPositions.some(Number.isNaN) && !centers.some(Number.isNaN);
  if (!kept) {
    if (ctx.keepBudgetBytes > 0 && nEnc > 0) ctx.probe.instant(INSTANT.positionKernelNotKept, { electrode: fitted.name, bytes: keptBytes });
    return ctx.probe.span('ground-process', () => logKdePending(encPositions, centers, ctx.q, ctx.positionStd), {
      work: logKdeWorkOf(encPositions, centers, ctx.q, ctx.positionStd),
    });
  }
  tensors.push(...uploadElectrode(fitted, ctx.q));
  if (keeper.fused) return fusedFit(ctx, fitted, keeper.fused, tensors);
  ctx.keepBudgetBytes -= kernelBytes;
  const logDensity = await ctx.probe.span('ground-process', () => groundDensityKeepingKernel(ctx, fitted, tensors), {
    work: keptKernelWork(ctx, encPositions),
  });
  if (keeper.fromKernel) await keepInsteadOfKernel(ctx, fitted, keeper.fromKernel, tensors);
  return logDensity;
}

/** The work of groundDensityKeepingKernel: the linear position kernel, by the grid kernels where they take it. */
function keptKernelWork(ctx: FitContext, encPositions: Float64Array): Work {
  return linearPositionKernel.work(encPositions, ctx.dataset.placeBinCenters, ctx.q, ctx.positionStd);
}

/**
 * log g_e from the whole (E × P) log-kernel at once, as logKde does tile by tile (per-bin maximum,
 * rescaled sum, float64 log on the host), keeping the linear kernel exp(logK) = exp(logK − max)·exp(max)
 * for the predict that follows: the ground process and the reference strategy share one kernel.
 */
function groundDensityKeepingKernel(ctx: FitContext, fitted: FittedElectrode, tensors: tf.Tensor[]): PendingRead<Float64Array> {
  const centers = toTensor2d(ctx.dataset.placeBinCenters, ctx.nBins, ctx.q);
  // flushed as a strategy that rebuilds it would
  const { colMax, colSum, kernel } = linearPositionKernel.run(fitted.encPositionsTensor!, centers, ctx.positionStd, electrodeFlush(ctx, fitted));
  centers.dispose();
  tensors.push(kernel);
  fitted.keptPositionKernel = kernel;
  return columnsRead(fitted.nEnc, colMax, colSum);
}

/** log g_e from the kept kernel's column maxima and sums, once they are read. */
function columnsRead(nEnc: number, colMax: tf.Tensor, colSum: tf.Tensor): PendingRead<Float64Array> {
  return pendingRead([colMax, colSum], ([mx, sm]) => logDensityFromColumns(nEnc, mx!, sm!));
}

/** The flush the strategies use on this electrode's linear position kernel (linearPositionKernelOf): the same bound, the same bias. */
function electrodeFlush(ctx: FitContext, fitted: FittedElectrode): boolean {
  const maxBias = maxFinite(electrodeBias(fitted.meanRate, ctx.occupancy, ctx.logOccupancy));
  return electrodeFlushIsSafe(ctx.positionStd, fitted.waveformStd, maxBias);
}

/**
 * A fit whose strategy builds what it keeps with the ground process (FitKeep.fused): log g_e and
 * the kept factor in one pass over cache-sized tiles of the position kernel, which is never in
 * memory whole (the numbers of groundDensityKeepingKernel then keepInsteadOfKernel, bit for bit).
 * Its span counts the factor's work with the ground process's.
 */
async function fusedFit(
  ctx: FitContext, fitted: FittedElectrode, fused: NonNullable<FitKeep['fused']>, tensors: tf.Tensor[],
): Promise<PendingRead<Float64Array>> {
  // the kernel's rows go through a cache-sized tile, not memory
  const kernelWork = linearPositionKernel.onGrid(fitted.encPositions, ctx.dataset.placeBinCenters, ctx.q, ctx.positionStd)
    ? gridKdeWork(fitted.nEnc, ctx.nBins, false)
    : logKdeWork(fitted.nEnc, ctx.nBins, ctx.q);
  return ctx.probe.span('ground-process', async () => {
    const centers = toTensor2d(ctx.dataset.placeBinCenters, ctx.nBins, ctx.q);
    const { colMax, colSum, kept } = fused.build(fitted.encPositionsTensor!, centers, ctx.positionStd, electrodeFlush(ctx, fitted));
    centers.dispose();
    ctx.keepBudgetBytes -= kept.factor.size * FLOAT32_BYTES;
    tensors.push(kept.factor);
    fitted.keptSeriesFactor = kept;
    return columnsRead(fitted.nEnc, colMax, colSum);
  }, { work: addWork(kernelWork, fused.work) });
}

/** log g_e from the kernel's column maxima and sums: max + log Σ − log E, in float64. */
function logDensityFromColumns(nEnc: number, mx: ArrayLike<number>, sm: ArrayLike<number>): Float64Array {
  const logN = Math.log(nEnc);
  const logDensity = new Float64Array(mx.length);
  for (let p = 0; p < logDensity.length; p++) logDensity[p] = mx[p]! + Math.log(sm[p]!) - logN;
  return logDensity;
}

/**
 * The strategy's factor from the kernel just built (still in cache, where a predict would read it
 * back from memory), kept in its place, the difference handed back to the keep budget.
 */
async function keepInsteadOfKernel(
  ctx: FitContext, fitted: FittedElectrode, fromKernel: NonNullable<FitKeep['fromKernel']>, tensors: tf.Tensor[],
): Promise<void> {
  const kernel = fitted.keptPositionKernel!;
  const kept = await ctx.probe.span(fromKernel.span, () => fromKernel.build(kernel), { work: fromKernel.work });
  ctx.keepBudgetBytes += (kernel.size - kept.factor.size) * FLOAT32_BYTES;
  tensors.splice(tensors.indexOf(kernel), 1, kept.factor);
  kernel.dispose();
  delete fitted.keptPositionKernel;
  fitted.keptSeriesFactor = kept;
}

/** Device copies of an electrode's encoding spikes; none for an electrode without any. */
export function uploadElectrode(fitted: FittedElectrode, q: number): tf.Tensor[] {
  if (fitted.nEnc === 0) return [];
  // A NaN spike position only arises when the occupancy is NaN everywhere, in which case
  // every spike term is floored whatever the kernel says; zeros keep the device math finite.
  const pos = fitted.encPositions.map((v) => (Number.isNaN(v) ? 0 : v));
  fitted.encPositionsTensor = toTensor2d(pos, fitted.nEnc, q);
  fitted.encFeaturesTensor = toTensor2d(fitted.encFeatures, fitted.nEnc, fitted.nFeatures);
  return [fitted.encPositionsTensor, fitted.encFeaturesTensor];
}
