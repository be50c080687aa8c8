/**
 * Non-local predict (kde-spec §4.1–4.5): LL[t, p] = −Λ(p), then each electrode's floored spike
 * terms are added to the row of their spike. The terms come from the chosen strategy on the
 * device, block by block; the scatter-add happens on the host in float64, which is exact,
 * order-independent and the same on every backend (wasm registers no UnsortedSegmentSum).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { StrategyChoice } from '../../shared/config';
import type { Dataset } from '../../shared/dataset';
import {
  DEFAULT_MEMORY_BUDGET_BYTES, DEFAULT_POS_TILE_SIZE, defaultEncTileSize, electrodeStrategy, LOG_EPS, throwIfCancelled, type StrategyOptions, type TileChoice,
} from './model';
import type { EncodingModel, FittedElectrode } from './fit';
import { gather, inBoundsIndices, spikeRows } from './hostMath';
import { toTensor2d } from './kernels';
import { STRATEGY_IMPLS, type ElectrodeContext } from './strategies';
import { makeStageTools } from './sync';
import { NULL_PROBE, type EngineProbe, type NonlocalResult, type PredictOptions } from './types';

const LOG_EPS_F32 = Math.fround(LOG_EPS);
/** exact (Sterbenz): float32(LOG_EPS) + FLOOR_CORRECTION is LOG_EPS in float64 */
const FLOOR_CORRECTION = LOG_EPS - LOG_EPS_F32;

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
  const logRate = Math.log(fitted.meanRate);
  return Float32Array.from(model.occupancy, (occ, p) => (occ > 0 ? logRate - model.logOccupancy[p]! : -Infinity));
}

/** LL[t, p] = −Λ(p) in every row: the likelihood before any spike term is added. */
export function groundProcessRows(summedGroundProcessIntensity: Float64Array, nTime: number): Float64Array {
  const nBins = summedGroundProcessIntensity.length;
  const ll = new Float64Array(nTime * nBins);
  for (let t = 0; t < nTime; t++) {
    for (let p = 0; p < nBins; p++) ll[t * nBins + p] = -summedGroundProcessIntensity[p]!;
  }
  return ll;
}

/** What one electrode runs: the named strategy, or what `auto` picks for its sizes. */
function strategyFor(
  strategy: StrategyChoice, model: EncodingModel, fitted: FittedElectrode, nDec: number, nTime: number, options: StrategyOptions,
): TileChoice {
  const sizes = { nEnc: fitted.nEnc, nDec, nBins: model.nBins, nFeatures: fitted.nFeatures, positionDims: model.positionDims, nTime };
  return electrodeStrategy(strategy, sizes, options);
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

/** μ = 0 and J ≡ 0: every decoding spike adds exactly LOG_EPS to every bin of its row (spec §4.5). */
export function addFloorTerms(ll: Float64Array, rows: Int32Array, nBins: number): void {
  for (const row of rows) for (let p = 0; p < nBins; p++) ll[row * nBins + p] = ll[row * nBins + p]! + LOG_EPS;
}

/**
 * Adds one block of spike terms, as the device gave them (B × P float32), into their rows in
 * float64; returns how many sat on the floor. Every path that builds a likelihood (one process,
 * or terms arriving from pool workers) adds through here in electrode, block and spike order, so
 * the sum is bitwise the same however the electrodes were computed.
 */
export function addTermsToRows(ll: Float64Array, values: Float32Array, rows: Int32Array, start: number, nBins: number): number {
  let floored = 0;
  const n = values.length / nBins;
  for (let k = 0; k < n; k++) {
    const base = rows[start + k]! * nBins;
    const src = k * nBins;
    for (let p = 0; p < nBins; p++) {
      const v = values[src + p]!;
      // a floored term is float32(LOG_EPS) on the device; add the exact float64 floor instead. Without
      // a branch (floors and terms interleave unpredictably: 7.8 → 2.3 ns per term measured): v + 1·Δ
      // is exactly LOG_EPS since Δ = LOG_EPS − float32(LOG_EPS) is exact (Sterbenz), and v + 0·Δ is v
      const onFloor = +(v <= LOG_EPS_F32); // a number, not a branch (a ternary compiles to one)
      floored += onFloor;
      ll[base + p] = ll[base + p]! + (v + onFloor * FLOOR_CORRECTION);
    }
  }
  return floored;
}

/** Receives one block of an electrode's spike terms: rows start.. of its decoding spikes, (B × P) float32. */
export type TermBlockSink = (start: number, values: Float32Array) => Promise<void> | void;

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
  const fitted = model.electrodes[e]!;
  const dec = decodingSpikes(dataset, e);
  const choice = strategyFor(strategy, model, fitted, dec.times.length, dataset.time.length, options);
  return { choice, dec, kind: electrodeTermsKind(dec.times.length, fitted.nEnc) };
}

/**
 * Runs electrode e's strategy over its decoding spikes, block by block, handing each block of
 * terms to `sink` (inside the block's `scatter` span) before the next block starts.
 */
export async function electrodeTerms(
  model: EncodingModel, e: number, plan: ElectrodePlan, options: PredictOptions, probe: EngineProbe, sink: TermBlockSink,
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
          values = (await terms.data()) as Float32Array;
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
  return { electrode: fitted.name, strategy: plan.choice.strategy, nEnc: fitted.nEnc, nDec: plan.dec.times.length };
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
  const ll = groundProcessRows(model.summedGroundProcessIntensity, nTime);
  const result: NonlocalResult = { logLikelihood: ll, nTime, nBins, resolved: [], floorShare: [], nTerms: [] };
  const nElectrodes = model.electrodes.length;
  for (let e = 0; e < nElectrodes; e++) {
    throwIfCancelled(options.signal);
    const plan = planElectrode(model, dataset, e, strategy, options);
    const nDec = plan.dec.times.length;
    result.resolved.push(plan.choice.strategy);
    result.nTerms.push(nDec * nBins);
    if (plan.kind === 'none') {
      result.floorShare.push(NaN);
      continue;
    }
    if (plan.kind === 'floor') {
      addFloorTerms(ll, plan.dec.rows, nBins);
      result.floorShare.push(1);
      continue;
    }
    let floored = 0;
    await probe.span(
      `electrode ${e}`,
      () => electrodeTerms(model, e, plan, options, probe, (start, values) => {
        floored += addTermsToRows(ll, values, plan.dec.rows, start, nBins);
      }),
      electrodeSpanArgs(model, e, plan),
    );
    result.floorShare.push(floored / (nDec * nBins));
    probe.progress((e + 1) / nElectrodes, `electrode ${e + 1}/${nElectrodes}`);
  }
  return result;
}
