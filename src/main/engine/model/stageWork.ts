/**
 * The work of each stage the engine records (its span names), per fit + predict call, from the
 * problem sizes and the engine's own order of work: which ops each strategy runs inside which
 * stage, per block and per encoding chunk, with the tiles predict.ts gives each electrode. Work
 * done between stages (a strategy's epilogue outside `reduce`, slices between stages) belongs to
 * no stage and is not counted.
 *
 * Sizes come from the dataset summary: every encoding and decoding spike of an electrode and every
 * position sample. The engine drops out-of-bounds spikes and non-training samples first, so on
 * such data these counts are an upper bound.
 */
import { isDispatch, type StrategyChoice, type StrategyName } from '../../../shared/config';
import type { DatasetSummary } from '../../../shared/dataset';
import { COMPENSATED_MAX_FEATURES, DEFAULT_POS_TILE_SIZE } from './constants';
import { defaultEncTileSize, resolveNldDispatch, sizesOfElectrode } from './memoryModel';
import {
  addWork, copy, epilogueWork, expOp, finishCompensatedWork, foldCompensatedWork, foldLogSumExpWork, gemm, hostScatter,
  logKdeWork, logKernelDirectWork, logOp, logSumExpJointWork, markKernelGemmWork, NO_WORK, pieces, positionFactorWork, scaleWork,
  unary, type Work,
} from './opWork';
import type { ProblemSizes, StrategyOptions } from './types';

/** The engine's stage spans the model covers, in the order a call meets them. */
export const MODELLED_STAGES = ['occupancy', 'ground-process', 'position-kernel', 'series-factor', 'mark-kernel', 'reduce', 'scatter'] as const;
export type ModelledStage = (typeof MODELLED_STAGES)[number];
export type StageWork = Record<ModelledStage, Work>;

/** The tiles an electrode runs with: decoding block B, encoding chunk C, position tile Tp. */
export interface ElectrodeTiles {
  blockSize: number;
  encTileSize: number;
  posTileSize: number;
}

class StageTally {
  readonly work: StageWork = {
    occupancy: NO_WORK, 'ground-process': NO_WORK, 'position-kernel': NO_WORK, 'series-factor': NO_WORK, 'mark-kernel': NO_WORK, reduce: NO_WORK,
    scatter: NO_WORK,
  };

  add(stage: ModelledStage, w: Work, times = 1): void {
    if (times > 0) this.work[stage] = addWork(this.work[stage], scaleWork(w, times));
  }
}

/** Σ over encoding chunks of fold(length, first): only the very first chunk has no running state. */
function overChunks(nEnc: number, chunk: number, fold: (length: number, first: boolean) => Work): Work {
  let seen = 0;
  const parts: Work[] = [];
  for (const c of pieces(nEnc, chunk)) {
    const firstHere = seen === 0 ? 1 : 0;
    if (firstHere) parts.push(fold(c.length, true));
    parts.push(scaleWork(fold(c.length, false), c.count - firstHere));
    seen += c.count;
  }
  return addWork(...parts);
}

/**
 * The strategy and tiles predict.ts gives one electrode (a dispatch resolved per electrode by NLD's
 * rule: whether `auto` runs series depends on the marks, which sizes do not show).
 */
export function electrodePlan(strategy: StrategyChoice, s: ProblemSizes, o: StrategyOptions): { strategy: StrategyName; tiles: ElectrodeTiles } {
  const choice = isDispatch(strategy) ? resolveNldDispatch(s, o) : { strategy, encTileSize: undefined, posTileSize: undefined };
  return {
    strategy: choice.strategy,
    tiles: {
      blockSize: Math.max(1, o.blockSize),
      encTileSize: choice.encTileSize ?? o.encTileSize ?? defaultEncTileSize(choice.strategy, s, o),
      posTileSize: choice.posTileSize ?? o.posTileSize ?? DEFAULT_POS_TILE_SIZE,
    },
  };
}

/** The reference strategy's linear (E × P) position kernel (also the series strategy's, when not kept). */
export const linearPositionKernelWork = (E: number, P: number, Q: number): Work => addWork(logKernelDirectWork(E, P, Q), expOp(E * P));
/** The reference strategy's linear mark kernel of b decoding spikes (also series' spikes out of reach above 8 features). */
export const linearMarkKernelWork = (b: number, E: number, D: number): Work => addWork(copy(b * D), logKernelDirectWork(b, E, D), expOp(b * E));
/** The reference strategy's product, ÷ E, log and epilogue for b decoding spikes. */
export const linearReduceWork = (b: number, E: number, P: number): Work => addWork(gemm(b, E, P), unary(b * P), logOp(b * P), epilogueWork(b, P));

function addReference(tally: StageTally, s: ProblemSizes, t: ElectrodeTiles): void {
  const { nEnc: E, nBins: P, nFeatures: D, positionDims: Q } = s;
  tally.add('position-kernel', linearPositionKernelWork(E, P, Q));
  for (const { length: b, count } of pieces(s.nDec, t.blockSize)) {
    tally.add('mark-kernel', linearMarkKernelWork(b, E, D), count);
    tally.add('reduce', linearReduceWork(b, E, P), count);
  }
}

function addLogsumexp(tally: StageTally, s: ProblemSizes, t: ElectrodeTiles, tile: number): void {
  const { nEnc: E, nBins: P, nFeatures: D, positionDims: Q } = s;
  tally.add('position-kernel', logKernelDirectWork(E, P, Q));
  for (const { length: b, count } of pieces(s.nDec, t.blockSize)) {
    tally.add('mark-kernel', markKernelGemmWork(b, E, D), count);
    tally.add('reduce', logSumExpJointWork(b, E, P, tile), count);
  }
}

function addChunked(tally: StageTally, s: ProblemSizes, t: ElectrodeTiles): void {
  const { nEnc: E, nBins: P, nFeatures: D, positionDims: Q } = s;
  const blocks = pieces(s.nDec, t.blockSize);
  for (const { length: c, count } of pieces(E, t.encTileSize)) {
    tally.add('position-kernel', addWork(copy(c * Q), logKernelDirectWork(c, P, Q)), count);
    for (const blk of blocks) {
      tally.add('mark-kernel', markKernelGemmWork(blk.length, c, D), count * blk.count);
      tally.add('reduce', logSumExpJointWork(blk.length, c, P, t.posTileSize), count * blk.count);
    }
  }
  for (const blk of blocks) {
    tally.add('reduce', overChunks(E, t.encTileSize, (_c, first) => (first ? NO_WORK : foldLogSumExpWork(blk.length, P))), blk.count);
  }
}

function addCompensated(tally: StageTally, s: ProblemSizes, t: ElectrodeTiles): void {
  const { nEnc: E, nBins: P, nFeatures: D, positionDims: Q } = s;
  const chunk = t.encTileSize >= E ? E : t.encTileSize;
  const whole = chunk === E;
  tally.add('position-kernel', addWork(logKernelDirectWork(E, P, Q), positionFactorWork(E, P)));
  for (const { length: b, count } of pieces(s.nDec, t.blockSize)) {
    tally.add('mark-kernel', markKernelGemmWork(b, E, D), count);
    // whole: the parts are clones (no copy); e′ slices the mark columns, the maxima and the factor rows
    const folds = overChunks(E, chunk, (c, first) =>
      addWork(whole ? NO_WORK : addWork(copy(b * c), copy(c), copy(c * P)), foldCompensatedWork(b, c, P, first)),
    );
    tally.add('reduce', addWork(folds, finishCompensatedWork(b, P)), count);
  }
}

function addStreaming(tally: StageTally, s: ProblemSizes, t: ElectrodeTiles): void {
  const { nEnc: E, nBins: P, nFeatures: D, positionDims: Q } = s;
  const lowD = D <= COMPENSATED_MAX_FEATURES;
  const chunkKernels = addWork(
    ...pieces(E, t.encTileSize).map(({ length: c, count }) => scaleWork(addWork(copy(c * Q), logKernelDirectWork(c, P, Q)), count)),
  );
  for (const { length: b, count } of pieces(s.nDec, t.blockSize)) {
    tally.add('mark-kernel', markKernelGemmWork(b, E, D), count);
    tally.add('position-kernel', chunkKernels, count);
    const folds = overChunks(E, t.encTileSize, (c, first) =>
      lowD
        ? addWork(positionFactorWork(c, P), foldCompensatedWork(b, c, P, first))
        : addWork(logSumExpJointWork(b, c, P, t.posTileSize), first ? NO_WORK : foldLogSumExpWork(b, P)),
    );
    tally.add('reduce', folds, count);
  }
}

/** The predict stages of one electrode under one strategy; nothing when it has no spikes to decode or encode. */
export function predictStageWork(strategy: StrategyName, s: ProblemSizes, t: ElectrodeTiles): StageWork {
  const tally = new StageTally();
  if (s.nDec === 0 || s.nEnc === 0) return tally.work;
  switch (strategy) {
    case 'reference':
      addReference(tally, s, t);
      break;
    case 'logsumexp':
      addLogsumexp(tally, s, t, s.nBins);
      break;
    case 'logsumexp-tiled':
      addLogsumexp(tally, s, t, t.posTileSize);
      break;
    case 'chunked':
      addChunked(tally, s, t);
      break;
    case 'compensated':
      addCompensated(tally, s, t);
      break;
    case 'streaming':
      addStreaming(tally, s, t);
      break;
    case 'series':
      // its work depends on the marks (the series order, which spikes it covers), not on sizes
      // alone: its spans count it (strategies/series), and only those counts go in its roofline
      break;
  }
  tally.add('scatter', hostScatter(s.nDec * s.nBins));
  return tally.work;
}

/** Every stage of one fit + predict call of a strategy over the whole dataset. */
export function callStageWork(strategy: StrategyChoice, dataset: DatasetSummary, o: StrategyOptions): StageWork {
  const tally = new StageTally();
  const { nBins: P, positionDims: Q } = dataset;
  tally.add('occupancy', logKdeWork(dataset.nPositionSamples, P, Q));
  for (const electrode of dataset.electrodes) {
    const s = sizesOfElectrode(dataset, electrode);
    tally.add('ground-process', logKdeWork(s.nEnc, P, Q));
    const plan = electrodePlan(strategy, s, o);
    const predicted = predictStageWork(plan.strategy, s, plan.tiles);
    for (const stage of MODELLED_STAGES) tally.add(stage, predicted[stage]);
  }
  return tally.work;
}
