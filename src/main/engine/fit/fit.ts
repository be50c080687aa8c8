/**
 * Encoding fit (kde-spec §3): occupancy, per-electrode mean rates, ground-process intensity and its
 * sum. As the model layer does (spec §4.7), only is_training samples are fit on, encoding spikes
 * must fall in a training run widened by one sample interval, and positions with NaN are dropped
 * before the fit unless the caller asks for the likelihood function's own semantics ('propagate').
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Dataset, ElectrodeData } from '../../../shared/dataset';
import { electrodeArgs, ELECTRODE_SPAN } from '../../../shared/traceSpans';
import { EPS } from '../model';
import { stdVector } from './kernelWidths';
import { dropNanRows, interpolatePosition, trainingSelection } from './positionTrack';
import { gather, gatherOrAll, inBoundsIndices, insideWindows } from './rowSelection';
import type { EncodingModel, FitOptions, FittedElectrode } from './fitTypes';
import { toTensor2d, kdePartCount, kdeParts, kdePartsWork, logKde, logKdeWorkOf, mergeKdeParts, type KdePart } from '../gaussian';
import { fitKeepFor, KEEP_THE_KERNEL, type FitElectrode, type FitKeep } from '../strategies';
import { groundDensity, uploadElectrode } from './groundDensity';
import { discardAll, readAll, type PendingRead } from '../readback';
import { PositionCache } from './positionCache';
import { NULL_PROBE, type EngineProbe } from '../types';

export type { EncodingModel, FitOptions, FittedElectrode } from './fitTypes';

interface PositionTrack {
  positionTime: Float64Array;
  position: Float64Array;
  dropped: number;
}

interface EncodingTrack {
  track: PositionTrack;
  /** the training windows encoding spikes must fall in; null when there is no is_training */
  trainingWindows: [number, number][] | null;
}

/** What every electrode's fit shares: the encoding track, its time span, and the occupancy. */
export interface FitContext {
  dataset: Dataset;
  probe: EngineProbe;
  q: number;
  positionStd: number[];
  trainingWindows: EncodingTrack['trainingWindows'];
  track: PositionTrack;
  tStart: number;
  tEnd: number;
  nBins: number;
  logOccupancy: Float64Array;
  occupancy: Float64Array;
  /** bytes of position kernels still allowed to be kept (FitOptions.keepPositionKernelBytes) */
  keepBudgetBytes: number;
  /** what the strategy that follows keeps per electrode (FitOptions.keepFor) */
  fitKeep: (electrode: FitElectrode) => FitKeep;
}

/** The position track the encoding is fit on: training rows only, without NaN rows unless asked. */
function encodingTrack(dataset: Dataset, q: number, nanPositions: FitOptions['nanPositions']): EncodingTrack {
  const training = dataset.isTraining
    ? trainingSelection(dataset.positionTime, dataset.position, q, dataset.isTraining)
    : null;
  const encodingTime = training?.positionTime ?? dataset.positionTime;
  const encodingPosition = training?.position ?? dataset.position;
  const track =
    (nanPositions ?? 'drop') === 'drop'
      ? dropNanRows(encodingTime, encodingPosition, q)
      : { positionTime: encodingTime, position: encodingPosition, dropped: 0 };
  return { track, trainingWindows: training?.windows ?? null };
}

/** Λ_e per bin (spec §3): mean rate × g_e / occupancy, floored at EPS; EPS where the occupancy is 0. */
function groundProcessIntensity(ctx: FitContext, meanRate: number, logGroundDensity: Float64Array): Float64Array {
  const { nBins, occupancy, logOccupancy } = ctx;
  const gpi = new Float64Array(nBins);
  for (let p = 0; p < nBins; p++) {
    const occ = occupancy[p]!;
    let ratio: number;
    if (occ > 0) {
      const logG = logGroundDensity[p]!;
      // g itself is needed only where it may underflow to 0 (exp of −700 is still ~1e-304)
      const g = logG < -700 || Number.isNaN(logG) ? Math.exp(logG) : 1;
      ratio = g === 0 || Number.isNaN(g) ? g : Math.exp(logG - logOccupancy[p]!);
    } else {
      ratio = EPS;
    }
    const term = meanRate * ratio;
    gpi[p] = Number.isNaN(term) ? NaN : Math.max(term, EPS);
  }
  return gpi;
}

/** An electrode's fit, its g_e and Λ_e to come from the columns it left on the device. */
interface ElectrodeFit {
  fitted: FittedElectrode;
  pending: PendingRead<Float64Array>;
}

/** g_e and Λ_e of a fitted electrode, from log g_e. */
function finishElectrode(ctx: FitContext, fitted: FittedElectrode, logGroundDensity: Float64Array): void {
  fitted.logGroundDensity = logGroundDensity;
  fitted.groundProcessIntensity = groundProcessIntensity(ctx, fitted.meanRate, logGroundDensity);
}

/**
 * One electrode's host-side fit: its in-window, in-bounds encoding spikes and their positions; its
 * g_e and Λ_e wait for the columns it left on the device (finishElectrode).
 */
async function fitElectrode(ctx: FitContext, el: ElectrodeData, tensors: tf.Tensor[]): Promise<ElectrodeFit> {
  const { q, track, trainingWindows } = ctx;
  const selected = trainingWindows ? insideWindows(el.encodingSpikeTimes, trainingWindows) : null;
  const candidates = selected ? gather(el.encodingSpikeTimes, selected) : el.encodingSpikeTimes;
  const candidateFeatures = selected ? gather(el.encodingFeatures, selected, el.nFeatures) : el.encodingFeatures;
  const keep = inBoundsIndices(candidates, ctx.tStart, ctx.tEnd);
  const times = gatherOrAll(candidates, keep);
  const encFeatures = gatherOrAll(candidateFeatures, keep, el.nFeatures);
  const encPositions = keep.length > 0 ? interpolatePosition(track.positionTime, track.position, q, times) : new Float64Array(0);
  const meanRate = keep.length / Math.max(track.positionTime.length, 1);
  const fitted: FittedElectrode = {
    name: el.name,
    nFeatures: el.nFeatures,
    nEnc: keep.length,
    waveformStd: stdVector(ctx.dataset.params.waveformStd, el.nFeatures, 'waveform_std', el.name),
    encPositions,
    encFeatures,
    meanRate,
    logGroundDensity: new Float64Array(0),
    groundProcessIntensity: new Float64Array(0),
    encPositionsTensor: null,
    encFeaturesTensor: null,
  };
  return { fitted, pending: await groundDensity(ctx, fitted, tensors) };
}

/** The fit hook of FitOptions.keepFor, or keep the kernel. */
function fitKeepOf(options: FitOptions): (electrode: FitElectrode) => FitKeep {
  const keepFor = options.keepFor ?? (options.keepOnlyForSeries ? 'series' : undefined);
  return (keepFor && fitKeepFor(keepFor)) ?? (() => KEEP_THE_KERNEL);
}


interface ElectrodeFits {
  electrodes: FittedElectrode[];
  /** Λ_e summed over electrodes, per bin */
  summed: Float64Array;
}

/** Electrode e's fit in its `electrode` span, with its device copies (also pushed to `tensors`). */
function fitElectrodeSpan(ctx: FitContext, e: number, tensors: tf.Tensor[]): Promise<ElectrodeFit> {
  const el = ctx.dataset.electrodes[e]!;
  return ctx.probe.span(ELECTRODE_SPAN, async () => {
    const fit = await fitElectrode(ctx, el, tensors);
    if (fit.fitted.encPositionsTensor === null) tensors.push(...uploadElectrode(fit.fitted, ctx.q));
    return fit;
  }, electrodeArgs(e, el.name));
}

/** Σ_e Λ_e per bin, added in electrode order: the one order every way of fitting sums in. */
export function sumGroundProcess(perElectrode: readonly Float64Array[], nBins: number): Float64Array {
  const summed = new Float64Array(nBins);
  for (const gpi of perElectrode) for (let p = 0; p < nBins; p++) summed[p] = summed[p]! + gpi[p]!;
  return summed;
}

/**
 * The fits of `indices`, in order (the others stay holes); their device copies go to `tensors`. The
 * kept kernels' columns stay on the device until every one is fitted and are read back together,
 * in one `ground-process` span: on a GPU one round trip for the fit instead of one per electrode.
 * Electrodes are independent given the shared context, so a pool's worker fits its share this way
 * too. `onFitted` runs after each electrode (a worker samples its tensors there).
 */
export async function fitElectrodesAt(ctx: FitContext, indices: readonly number[], tensors: tf.Tensor[], onFitted: () => void = () => undefined): Promise<FittedElectrode[]> {
  const fits: ElectrodeFit[] = [];
  let densities: Float64Array[];
  try {
    for (const e of indices) {
      fits.push(await fitElectrodeSpan(ctx, e, tensors));
      onFitted();
    }
    densities = fits.length > 0 ? await ctx.probe.span('ground-process', () => readAll(fits.map((f) => f.pending)), { electrodes: fits.length }) : [];
  } catch (err) {
    // the columns not read yet (readAll frees its own either way, and a tensor freed twice is freed once)
    discardAll(fits.map((f) => f.pending));
    throw err;
  }
  const fitted: FittedElectrode[] = [];
  indices.forEach((e, i) => {
    finishElectrode(ctx, fits[i]!.fitted, densities[i]!);
    fitted[e] = fits[i]!.fitted;
  });
  return fitted;
}

/** Every electrode's fit, in order, and Λ_e summed over them. */
async function fitElectrodes(ctx: FitContext, tensors: tf.Tensor[]): Promise<ElectrodeFits> {
  const electrodes = await fitElectrodesAt(ctx, ctx.dataset.electrodes.map((_, e) => e), tensors);
  return { electrodes, summed: sumGroundProcess(electrodes.map((f) => f.groundProcessIntensity), ctx.nBins) };
}

/** How many parts the occupancy sum has (logKde.ts), so a pool can share them between its workers. */
export function occupancyPartCount(dataset: Dataset, options: FitOptions = {}): number {
  return kdePartCount(encodingTrack(dataset, dataset.positionDims, options.nanPositions).track.positionTime.length);
}

/** Parts `indices` of the occupancy sum, in an `occupancy` span. */
export async function occupancyParts(dataset: Dataset, indices: readonly number[], probe: EngineProbe = NULL_PROBE, options: FitOptions = {}): Promise<KdePart[]> {
  const q = dataset.positionDims;
  const positionStd = stdVector(dataset.params.positionStd, q, 'position_std');
  const { track } = encodingTrack(dataset, q, options.nanPositions);
  return probe.span('occupancy', async () => {
    return kdeParts(track.position, dataset.placeBinCenters, q, positionStd, indices);
  }, { parts: indices.length, bins: dataset.placeBinCenters.length / q, work: kdePartsWork(track.position, dataset.placeBinCenters, q, positionStd, indices) });
}

/** The log occupancy from all of its parts, in part order. */
export function mergeOccupancy(dataset: Dataset, parts: readonly KdePart[]): Float64Array {
  return mergeKdeParts(parts, dataset.placeBinCenters, dataset.positionDims);
}

/**
 * The fit's shared part, in its `occupancy` span: the encoding track and the occupancy on the grid,
 * or the log occupancy given (a pool's workers computed its parts between them).
 */
export async function prepareFit(
  dataset: Dataset, probe: EngineProbe = NULL_PROBE, options: FitOptions = {}, sharedLogOccupancy?: Float64Array,
): Promise<FitContext> {
  const q = dataset.positionDims;
  const positionStd = stdVector(dataset.params.positionStd, q, 'position_std');
  const { track, trainingWindows } = encodingTrack(dataset, q, options.nanPositions);
  const n = track.positionTime.length;
  const centers = dataset.placeBinCenters;
  const nBins = centers.length / q;
  const logOccupancy = sharedLogOccupancy ?? await probe.span('occupancy', () => logKde(track.position, centers, q, positionStd), {
    samples: n,
    bins: nBins,
    work: logKdeWorkOf(track.position, centers, q, positionStd),
  });
  return {
    dataset, probe, q, positionStd, trainingWindows, track, nBins, logOccupancy,
    occupancy: logOccupancy.map(Math.exp),
    tStart: n > 0 ? track.positionTime[0]! : NaN,
    tEnd: n > 0 ? track.positionTime[n - 1]! : NaN,
    keepBudgetBytes: options.keepPositionKernelBytes ?? 0,
    fitKeep: fitKeepOf(options),
  };
}

/**
 * The model over fitted electrodes (indexed by electrode; a pool worker holds only some), owning
 * `tensors` and the bin centres it uploads.
 */
export function encodingModelOf(ctx: FitContext, electrodes: FittedElectrode[], summed: Float64Array, tensors: tf.Tensor[]): EncodingModel {
  const centersTensor = toTensor2d(ctx.dataset.placeBinCenters, ctx.nBins, ctx.q);
  tensors.push(centersTensor);
  const positionCache = new PositionCache();
  electrodes.forEach((fitted, e) => {
    if (fitted?.keptPositionKernel) positionCache.put(`electrode ${e} linear`, [fitted.keptPositionKernel]);
    if (fitted?.keptSeriesFactor) positionCache.put(`electrode ${e} ${fitted.keptSeriesFactor.kind}`, [fitted.keptSeriesFactor.factor]);
  });
  return {
    nBins: ctx.nBins,
    positionDims: ctx.q,
    positionStd: ctx.positionStd,
    centers: ctx.dataset.placeBinCenters,
    centersTensor,
    occupancySamples: ctx.track.position,
    logOccupancy: ctx.logOccupancy,
    occupancy: ctx.occupancy,
    meanRates: Float64Array.from(electrodes, (e) => e?.meanRate ?? NaN),
    summedGroundProcessIntensity: summed,
    electrodes,
    droppedNanPositions: ctx.track.dropped,
    positionCache,
    dispose: () => {
      positionCache.dispose();
      tf.dispose(tensors);
    },
  };
}

export async function fitEncodingModel(
  dataset: Dataset,
  probe: EngineProbe = NULL_PROBE,
  options: FitOptions = {},
): Promise<EncodingModel> {
  const ctx = await prepareFit(dataset, probe, options);
  const tensors: tf.Tensor[] = [];
  let fits: ElectrodeFits;
  try {
    fits = await fitElectrodes(ctx, tensors);
  } catch (err) {
    tf.dispose(tensors);
    throw err;
  }
  return encodingModelOf(ctx, fits.electrodes, fits.summed, tensors);
}
