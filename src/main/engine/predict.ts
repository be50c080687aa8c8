/**
 * Non-local predict (kde-spec §4.1–4.5): LL[t, p] = −Λ(p), then each electrode's floored spike
 * terms are added to the row of their spike. The terms come from the chosen strategy on the
 * device, block by block; the scatter-add happens on the host in float64, which is exact,
 * order-independent and the same on every backend (wasm registers no UnsortedSegmentSum).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { StrategyChoice, StrategyName } from '../../shared/config';
import type { Dataset } from '../../shared/dataset';
import { AppError } from '../../shared/errors';
import { DEFAULT_POS_TILE_SIZE, defaultEncTileSize, LOG_EPS, resolveAutoStrategy, type StrategyOptions } from './model';
import type { EncodingModel, FittedElectrode } from './fit';
import { gather, inBoundsIndices, spikeRows } from './hostMath';
import { toTensor2d } from './kernels';
import { STRATEGY_IMPLS, type ElectrodeContext, type StageTools } from './strategies';
import { makeStageTools } from './sync';
import { NULL_PROBE, type EngineProbe, type NonlocalResult } from './types';

export class CancelledError extends AppError {
  constructor() {
    super('CANCELLED', 'the run was cancelled');
  }
}

const LOG_EPS_F32 = Math.fround(LOG_EPS);

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

export async function predictNonlocal(
  model: EncodingModel,
  dataset: Dataset,
  strategy: StrategyChoice,
  options: StrategyOptions,
  probe: EngineProbe = NULL_PROBE,
): Promise<NonlocalResult> {
  const nTime = dataset.time.length;
  const nBins = model.nBins;
  const ll = new Float64Array(nTime * nBins);
  for (let t = 0; t < nTime; t++) {
    for (let p = 0; p < nBins; p++) ll[t * nBins + p] = -model.summedGroundProcessIntensity[p]!;
  }
  const tools = makeStageTools(probe);
  const resolved: StrategyName[] = [];
  const floorShare: number[] = [];
  const nTerms: number[] = [];

  for (let e = 0; e < model.electrodes.length; e++) {
    if (probe.cancelled()) throw new CancelledError();
    const fitted = model.electrodes[e]!;
    const dec = decodingSpikes(dataset, e);
    const choice =
      strategy === 'auto'
        ? resolveAutoStrategy(
            { nEnc: fitted.nEnc, nDec: dec.times.length, nBins, nFeatures: fitted.nFeatures, positionDims: model.positionDims, nTime },
            options,
          )
        : { strategy, encTileSize: undefined, posTileSize: undefined };
    resolved.push(choice.strategy);
    nTerms.push(dec.times.length * nBins);
    if (dec.times.length === 0) {
      floorShare.push(NaN);
      continue;
    }
    if (fitted.nEnc === 0 || fitted.encPositionsTensor === null || fitted.encFeaturesTensor === null) {
      // μ = 0 and J ≡ 0: every decoding spike adds exactly LOG_EPS to every bin of its row (spec §4.5)
      for (const row of dec.rows) for (let p = 0; p < nBins; p++) ll[row * nBins + p] = ll[row * nBins + p]! + LOG_EPS;
      floorShare.push(1);
      continue;
    }
    let floored = 0;
    await probe.span(
      `electrode ${e}`,
      async () => {
        const bias = tf.tensor1d(biasOf(model, fitted));
        const decMarks = toTensor2d(dec.features, dec.times.length, fitted.nFeatures);
        const ctx: ElectrodeContext = {
          encPositions: fitted.encPositionsTensor!,
          encMarks: fitted.encFeaturesTensor!,
          centers: model.centersTensor,
          positionStd: model.positionStd,
          waveformStd: fitted.waveformStd,
          nEnc: fitted.nEnc,
          nBins,
          nFeatures: fitted.nFeatures,
          bias,
          blockSize: Math.max(1, options.blockSize),
          encTileSize:
            choice.encTileSize ??
            options.encTileSize ??
            defaultEncTileSize(choice.strategy, { nEnc: fitted.nEnc, nDec: dec.times.length, nBins, nFeatures: fitted.nFeatures }, options),
          posTileSize: choice.posTileSize ?? options.posTileSize ?? DEFAULT_POS_TILE_SIZE,
        };
        try {
          await STRATEGY_IMPLS[choice.strategy].run(ctx, decMarks, tools, async (start, terms) => {
            floored += await scatter(tools, terms, dec.rows, start, ll, nBins);
            if (probe.cancelled()) throw new CancelledError();
          });
        } finally {
          tf.dispose([bias, decMarks]);
        }
      },
      { electrode: fitted.name, strategy: choice.strategy, nEnc: fitted.nEnc, nDec: dec.times.length },
    );
    floorShare.push(floored / (dec.times.length * nBins));
    probe.progress((e + 1) / model.electrodes.length, `electrode ${e + 1}/${model.electrodes.length}`);
  }
  return { logLikelihood: ll, nTime, nBins, resolved, floorShare, nTerms };
}

/** Adds a block of spike terms into their rows; returns how many sat on the floor. */
async function scatter(
  tools: StageTools,
  terms: tf.Tensor2D,
  rows: Int32Array,
  start: number,
  ll: Float64Array,
  nBins: number,
): Promise<number> {
  return tools.span('scatter', async () => {
    let values: Float32Array;
    try {
      values = (await terms.data()) as Float32Array;
    } finally {
      terms.dispose();
    }
    let floored = 0;
    const n = values.length / nBins;
    for (let k = 0; k < n; k++) {
      const base = rows[start + k]! * nBins;
      const src = k * nBins;
      for (let p = 0; p < nBins; p++) {
        let v = values[src + p]!;
        // a floored term is float32(LOG_EPS) on the device; add the exact float64 floor instead
        if (v <= LOG_EPS_F32) {
          v = LOG_EPS;
          floored++;
        }
        ll[base + p] = ll[base + p]! + v;
      }
    }
    return floored;
  });
}
