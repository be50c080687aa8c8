/**
 * One electrode's spike terms under the strategy its plan names (kde-spec §4.1–4.4): computed on
 * the device block by block, each block read back and handed on before the next starts. Whichever
 * thread holds the fitted electrode runs this; the sum into the likelihood is the caller's.
 */
import * as tf from '@tensorflow/tfjs-core';
import { electrodeArgs } from '../../../shared/traceSpans';
import { DEFAULT_MEMORY_BUDGET_BYTES, DEFAULT_POS_TILE_SIZE, defaultEncTileSize, throwIfCancelled } from '../model';
import type { EncodingModel, FittedElectrode } from '../fit';
import { electrodeBias } from '../hostMath';
import { toTensor2d } from '../gaussian';
import { STRATEGY_IMPLS, type ElectrodeContext, type StageTools } from '../strategies';
import { makeStageTools } from '../backends';
import type { EngineProbe, PredictOptions } from '../types';
import type { DeviceRowSums } from './deviceRowSums';
import type { PlannedTerms } from './plan';

function biasOf(model: EncodingModel, fitted: FittedElectrode): Float32Array {
  return electrodeBias(fitted.meanRate, model.occupancy, model.logOccupancy);
}

/** The strategy's inputs for the planned electrode: the model's tensors and position kernels, the tiles, and the caller's bias. */
function electrodeContext(model: EncodingModel, planned: PlannedTerms, options: PredictOptions, bias: tf.Tensor1D, probe: EngineProbe): ElectrodeContext {
  const e = planned.electrode;
  const { choice, nDec } = planned;
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

/** What is done with one block of terms while it is still on the device; the terms are freed after. */
type BlockHandler = (start: number, terms: tf.Tensor2D, tools: StageTools) => Promise<void>;

/** The planned electrode's strategy over its decoding marks, block by block, each block handed to `handle` before the next starts. */
async function runBlocks(model: EncodingModel, planned: PlannedTerms, options: PredictOptions, probe: EngineProbe, handle: BlockHandler): Promise<void> {
  const fitted = model.electrodes[planned.electrode]!;
  const tools = makeStageTools(probe, { waitForDevice: options.stageSync !== false });
  const bias = tf.tensor1d(biasOf(model, fitted));
  const decMarks = toTensor2d(planned.marks, planned.nDec, fitted.nFeatures);
  try {
    const ctx = electrodeContext(model, planned, options, bias, probe);
    await STRATEGY_IMPLS[planned.choice.strategy].run(ctx, decMarks, tools, async (start, terms) => {
      try {
        await handle(start, terms, tools);
      } finally {
        terms.dispose();
      }
      throwIfCancelled(options.signal);
    });
  } finally {
    tf.dispose([bias, decMarks]);
  }
}

/**
 * Runs the planned electrode's strategy over its decoding marks, block by block, handing each
 * block of terms to `sink` (inside the block's `scatter` span) before the next block starts.
 */
export function electrodeTerms(
  model: EncodingModel, planned: PlannedTerms, options: PredictOptions, probe: EngineProbe, sink: TermBlockSink, read: TermReader = readFresh,
): Promise<void> {
  return runBlocks(model, planned, options, probe, (start, terms, tools) =>
    tools.span('scatter', async () => {
      await sink(start, await read(terms));
    }));
}

/**
 * As electrodeTerms, but each block's terms are summed into their rows on the device (`rowSums`,
 * read once by the caller): rows are the output rows of the electrode's decoding spikes.
 */
export function electrodeTermsOnDevice(
  model: EncodingModel, planned: PlannedTerms, options: PredictOptions, probe: EngineProbe, rowSums: DeviceRowSums, rows: Int32Array,
): Promise<void> {
  return runBlocks(model, planned, options, probe, (start, terms, tools) =>
    tools.stage('scatter', () => rowSums.add(planned.electrode, rows, start, terms)).then(() => undefined));
}

/** The span an electrode's terms are computed in, with what a reader of the trace needs to know. */
export function electrodeSpanArgs(model: EncodingModel, planned: PlannedTerms): Record<string, unknown> {
  const fitted = model.electrodes[planned.electrode]!;
  return electrodeArgs(planned.electrode, fitted.name, { strategy: planned.choice.strategy, nEnc: fitted.nEnc, nDec: planned.nDec });
}
