/**
 * Non-local predict (kde-spec §4.1–4.5): LL[t, p] = −Λ(p), then each electrode's floored spike
 * terms are added to the row of their spike. The terms come from the chosen strategy on the
 * device, block by block; the scatter-add happens on the host in float64, which is exact,
 * order-independent and the same on every backend (wasm registers no UnsortedSegmentSum); see
 * likelihoodSum.ts.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { StrategyChoice } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { electrodeArgs, ELECTRODE_SPAN } from '../../../shared/traceSpans';
import {
  DEFAULT_MEMORY_BUDGET_BYTES, DEFAULT_POS_TILE_SIZE, defaultEncTileSize, electrodeStrategy, throwIfCancelled, type StrategyOptions, type TileChoice,
} from '../model';
import type { EncodingModel, FittedElectrode } from '../fit';
import { electrodeBias } from '../logSpace';
import { spikeRows } from '../positionTrack';
import { gather, inBoundsIndices } from '../rowSelection';
import { LikelihoodSum } from './likelihoodSum';
import { toTensor2d } from '../gaussianKernel';
import { seriesReach, STRATEGY_IMPLS, type ElectrodeContext } from '../strategies';
import { makeStageTools } from '../sync';
import { NULL_PROBE, type EngineProbe, type NonlocalResult, type PredictOptions } from '../types';

/** In-bounds decoding spikes of one electrode and their output rows. */
export interface DecodingSpikes {
  times: Float64Array;
  features: Float64Array;
  rows: Int32Array;
}

export function decodingSpikes(dataset: Dataset, e: number): DecodingSpikes {
  const el = dataset.electrodes[e]!;
  const time = dataset.time;
  const keep = time.length > 0 ? inBoundsIndices(el.decodingSpikeTimes, time[0]!, time[time.length - 1]!) : new Int32Array(0);
  const times = gather(el.decodingSpikeTimes, keep);
  return { times, features: gather(el.decodingFeatures, keep, el.nFeatures), rows: spikeRows(times, time) };
}

function biasOf(model: EncodingModel, fitted: FittedElectrode): Float32Array {
  return electrodeBias(fitted.meanRate, model.occupancy, model.logOccupancy);
}

/**
 * What one electrode runs: the named strategy, or what a dispatch picks for it; `auto` weighs series
 * with what its bound proves for these marks (and whether the fit kept its factor).
 */
function strategyFor(
  strategy: StrategyChoice, model: EncodingModel, e: number, dec: DecodingSpikes, nTime: number, options: StrategyOptions,
): TileChoice {
  const fitted = model.electrodes[e]!;
  const nDec = dec.times.length;
  const sizes = { nEnc: fitted.nEnc, nDec, nBins: model.nBins, nFeatures: fitted.nFeatures, positionDims: model.positionDims, nTime };
  const wantsReach = strategy === 'auto' && options.calibration !== undefined && fitted.nEnc > 0 && nDec > 0;
  const reach = wantsReach
    ? seriesReach({
      encMarks: fitted.encFeatures, nEnc: fitted.nEnc, waveformStd: fitted.waveformStd, decMarks: dec.features, nDec,
      factorKept: (kind) => model.positionCache.has(`electrode ${e} ${kind}`),
    })
    : undefined;
  return electrodeStrategy(strategy, sizes, options, reach);
}

/** The strategy's inputs for electrode e: the model's tensors and position kernels, the tiles, and the caller's bias. */
function electrodeContext(
  model: EncodingModel, e: number, nDec: number, choice: TileChoice, options: PredictOptions, bias: tf.Tensor1D, probe: EngineProbe,
): ElectrodeContext {
  const fitted = model.electrodes[e]!;
  const budgetBytes = options.keepPositionKernels
    ? options.positionKernelBudgetBytes ?? options.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES
    : 0;
  const sizes = { nEnc: fitted.nEnc, nDec, nBins: model.nBins, nFeatures: fitted.nFeatures };
  return {
    encPositions: fitted.encPositionsTensor!,
    encMarks: fitted.encFeaturesTensor!,
    centers: model.centersTensor,
    positionStd: model.positionStd,
    waveformStd: fitted.waveformStd,
    nEnc: fitted.nEnc,
    nBins: model.nBins,
    nFeatures: fitted.nFeatures,
    bias,
    blockSize: Math.max(1, options.blockSize),
    encTileSize: choice.encTileSize ?? options.encTileSize ?? defaultEncTileSize(choice.strategy, sizes, options),
    posTileSize: choice.posTileSize ?? options.posTileSize ?? DEFAULT_POS_TILE_SIZE,
    positionKernel: (kind, build) => model.positionCache.get(`electrode ${e} ${kind}`, budgetBytes, probe, build),
  };
}

/** Receives one block of an electrode's spike terms: rows start.. of its decoding spikes, (B × P) float32. */
export type TermBlockSink = (start: number, values: Float32Array) => Promise<void> | void;
/** How a block of terms leaves the device: by default a fresh array (Tensor.data). */
export type TermReader = (terms: tf.Tensor2D) => Float32Array | Promise<Float32Array>;

const readFresh: TermReader = async (terms) => (await terms.data()) as Float32Array;

/** How an electrode's decoding spikes contribute: not at all, all on the floor, or through its strategy's terms. */
export type ElectrodeTermsKind = 'none' | 'floor' | 'terms';

/**
 * What an electrode's decoding spikes add: nothing without spikes, LOG_EPS everywhere without
 * encoding spikes (μ = 0, spec §4.5; the fit uploads no tensors then), else its strategy's terms.
 */
export function electrodeTermsKind(nDec: number, nEnc: number): ElectrodeTermsKind {
  if (nDec === 0) return 'none';
  return nEnc === 0 ? 'floor' : 'terms';
}

export interface ElectrodePlan {
  choice: TileChoice;
  dec: DecodingSpikes;
  kind: ElectrodeTermsKind;
}

/** What electrode e runs for this grid, and whether it needs the device at all. */
export function planElectrode(
  model: EncodingModel, dataset: Dataset, e: number, strategy: StrategyChoice, options: StrategyOptions,
): ElectrodePlan {
  const dec = decodingSpikes(dataset, e);
  const choice = strategyFor(strategy, model, e, dec, dataset.time.length, options);
  return { choice, dec, kind: electrodeTermsKind(dec.times.length, model.electrodes[e]!.nEnc) };
}

/**
 * Runs electrode e's strategy over its decoding spikes, block by block, handing each block of
 * terms to `sink` (inside the block's `scatter` span) before the next block starts.
 */
export async function electrodeTerms(
  model: EncodingModel, e: number, plan: ElectrodePlan, options: PredictOptions, probe: EngineProbe, sink: TermBlockSink,
  read: TermReader = readFresh,
): Promise<void> {
  const fitted = model.electrodes[e]!;
  const { dec, choice } = plan;
  const nDec = dec.times.length;
  const tools = makeStageTools(probe);
  const bias = tf.tensor1d(biasOf(model, fitted));
  const decMarks = toTensor2d(dec.features, nDec, fitted.nFeatures);
  try {
    const ctx = electrodeContext(model, e, nDec, choice, options, bias, probe);
    await STRATEGY_IMPLS[choice.strategy].run(ctx, decMarks, tools, async (start, terms) => {
      await tools.span('scatter', async () => {
        let values: Float32Array;
        try {
          values = await read(terms);
        } finally {
          terms.dispose();
        }
        await sink(start, values);
      });
      throwIfCancelled(options.signal);
    });
  } finally {
    tf.dispose([bias, decMarks]);
  }
}

/** The span electrode e's terms are computed in, with what a reader of the trace needs to know. */
export function electrodeSpanArgs(model: EncodingModel, e: number, plan: ElectrodePlan): Record<string, unknown> {
  const fitted = model.electrodes[e]!;
  return electrodeArgs(e, fitted.name, { strategy: plan.choice.strategy, nEnc: fitted.nEnc, nDec: plan.dec.times.length });
}

export async function predictNonlocal(
  model: EncodingModel,
  dataset: Dataset,
  strategy: StrategyChoice,
  options: PredictOptions,
  probe: EngineProbe = NULL_PROBE,
): Promise<NonlocalResult> {
  const nTime = dataset.time.length;
  const nBins = model.nBins;
  const sum = new LikelihoodSum(model.summedGroundProcessIntensity, nTime);
  const result: NonlocalResult = {
    logLikelihood: sum.ll, nTime, nBins, resolved: [], resolvedReasons: [], floorShare: [], nTerms: [], release: () => sum.release(),
  };
  const nElectrodes = model.electrodes.length;
  for (let e = 0; e < nElectrodes; e++) {
    throwIfCancelled(options.signal);
    const plan = planElectrode(model, dataset, e, strategy, options);
    const nDec = plan.dec.times.length;
    result.resolved.push(plan.choice.strategy);
    result.resolvedReasons!.push(plan.choice.reason ?? '');
    result.nTerms.push(nDec * nBins);
    if (plan.kind === 'none') {
      result.floorShare.push(NaN);
      continue;
    }
    if (plan.kind === 'floor') {
      sum.addFloor(plan.dec.rows);
      result.floorShare.push(1);
      continue;
    }
    let floored = 0;
    await probe.span(
      ELECTRODE_SPAN,
      () => electrodeTerms(model, e, plan, options, probe, (start, values) => {
        floored += sum.addTerms(values, plan.dec.rows, start);
      }),
      electrodeSpanArgs(model, e, plan),
    );
    result.floorShare.push(floored / (nDec * nBins));
    probe.progress((e + 1) / nElectrodes, `electrode ${e + 1}/${nElectrodes}`);
  }
  return result;
}
