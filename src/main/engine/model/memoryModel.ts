/**
 * Peak memory of each evaluation strategy from its formula (spec §7), in float32 bytes, and the
 * `auto` dispatch (spec §7.7 with a memory budget). Free of tfjs, so the engine, the service, the
 * analysis and the CLI share one dispatch and one set of estimates.
 *
 * Sizes are per electrode: E encoding spikes, S decoding spikes, P bins, D features, B the
 * decoding block (at most S), C the encoding chunk (at most E), Tp the position tile (at most P).
 * The (T × P) output is not on the device: the engine accumulates it on the host in float64,
 * so it appears as hostBytes = 8·T·P, never in deviceBytes.
 *
 * Where the engine's order of work differs from the repository's, the formula follows the
 * engine: `chunked` walks chunks in the outer loop and keeps every block's running logsumexp, so
 * its accumulators are S·P, not B·P.
 */
import { isDispatch, type StrategyChoice, type StrategyName } from '../../../shared/config';
import type { DatasetSummary } from '../../../shared/dataset';
import { formatBytes } from '../../../shared/format';
import {
  COMPENSATED_MAX_FEATURES, DEFAULT_ENC_TILE_SIZE, DEFAULT_MEMORY_BUDGET_BYTES, DEFAULT_POS_TILE_SIZE, FLOAT32_BYTES, FLOAT64_BYTES,
  MAX_SERIES_FEATURES, MAX_WORKING_SET_BYTES, SERIES_MIN_SAVING,
} from './constants';
import type { ProblemSizes, StrategyOptions } from './types';

type TileOptions = Pick<StrategyOptions, 'blockSize' | 'encTileSize' | 'posTileSize'>;

export interface PeakEstimate {
  deviceBytes: number;
  hostBytes: number;
  /** the device formula in words and numbers: "B·E·P + E·P = 100·200·500 + 200·500 floats" */
  formula: string;
}

interface Term {
  label: string;
  factors: number[];
}

interface Effective {
  E: number;
  S: number;
  B: number;
  P: number;
  C: number;
  Tp: number;
}

/** floats in the largest temporary a default encoding chunk allows (16 MiB in float32) */
const DEFAULT_CHUNK_FLOATS = 1 << 22;

/**
 * The encoding chunk a strategy uses when the run names none. Compensated (and series, for the
 * spikes it hands to compensated) does not chunk at all
 * (e′ only on request). Streaming and chunked take the largest chunk whose per-chunk temporaries
 * (C·P + C·B, plus B·C·Tp where a logsumexp fold runs) stay near 16 MiB, never below 256 spikes:
 * a fixed small chunk would make long recordings pay a fold per few hundred spikes.
 */
export function defaultEncTileSize(
  strategy: StrategyName,
  s: Pick<ProblemSizes, 'nEnc' | 'nDec' | 'nBins' | 'nFeatures'>,
  o: Pick<TileOptions, 'blockSize' | 'posTileSize'>,
): number {
  const E = Math.max(1, s.nEnc);
  // series hands the spikes out of its reach to compensated, with compensated's tiles
  if (strategy === 'compensated' || strategy === 'series') return E;
  const P = Math.max(1, s.nBins);
  const B = Math.max(1, Math.min(o.blockSize, s.nDec > 0 ? s.nDec : o.blockSize));
  const Tp = Math.min(o.posTileSize ?? DEFAULT_POS_TILE_SIZE, P);
  const logsumexpFold = !(strategy === 'streaming' && s.nFeatures <= COMPENSATED_MAX_FEATURES);
  const perSpike = P + B + (logsumexpFold ? B * Tp : 0);
  return Math.min(E, Math.max(DEFAULT_ENC_TILE_SIZE, Math.floor(DEFAULT_CHUNK_FLOATS / perSpike)));
}

function effective(s: ProblemSizes, o: TileOptions, strategy: StrategyName): Effective {
  const E = s.nEnc;
  const P = s.nBins;
  return {
    E,
    P,
    S: s.nDec,
    B: Math.min(o.blockSize, s.nDec),
    C: Math.min(o.encTileSize ?? defaultEncTileSize(strategy, s, o), E),
    Tp: Math.min(o.posTileSize ?? DEFAULT_POS_TILE_SIZE, P),
  };
}

function termsFor(strategy: StrategyName, s: ProblemSizes, o: TileOptions): Term[] {
  const { E, S, B, P, C, Tp } = effective(s, o, strategy);
  const t = (label: string, ...factors: number[]): Term => ({ label, factors });
  const lowD = s.nFeatures <= COMPENSATED_MAX_FEATURES;
  switch (strategy) {
    case 'reference':
      return [t('E·P', E, P), t('E·B', E, B), t('B·P', B, P)];
    case 'logsumexp':
      return [t('B·E·P', B, E, P), t('E·P', E, P)];
    case 'logsumexp-tiled':
      return [t('B·E·Tp', B, E, Tp), t('E·P', E, P)];
    case 'chunked':
      return [t('C·P', C, P), t('C·B', C, B), t('B·C·Tp', B, C, Tp), t('S·P', S, P)];
    case 'compensated':
      // e′ (a chunk smaller than E): the engine builds the stabilised position factor once per
      // electrode (E·P) and walks it in chunks, so only the mark side shrinks to C·B
      return o.encTileSize !== undefined && o.encTileSize < E
        ? [t('E·P', E, P), t('C·B', C, B), t('B·P', B, P)]
        : [t('E·P', E, P), t('E·B', E, B), t('B·P', B, P)];
    case 'series':
      // the kept position kernel, the (F × P) factor at its largest F, one block's features and
      // terms, and the direct product's (B × E) mark kernel for spikes beyond the series' reach
      return [t('E·P', E, P), t('F·P', Math.min(MAX_SERIES_FEATURES, Math.max(1, Math.floor(E / SERIES_MIN_SAVING))), P), t('E·B', E, B), t('B·P', B, P)];
    case 'streaming':
      // spec §7 f: streaming rides on e′ at D ≤ 8 and on online logsumexp (d) above; the mark
      // chunk C·B exists in both
      return lowD
        ? [t('C·P', C, P), t('C·B', C, B), t('B·P', B, P)]
        : [t('C·P', C, P), t('C·B', C, B), t('B·C·Tp', B, C, Tp), t('B·P', B, P)];
  }
}

export function estimatePeakBytes(strategy: StrategyName, s: ProblemSizes, o: TileOptions): PeakEstimate {
  const terms = termsFor(strategy, s, o);
  const floats = terms.reduce((sum, term) => sum + term.factors.reduce((p, f) => p * f, 1), 0);
  const formula =
    `${terms.map((x) => x.label).join(' + ')} = ` +
    `${terms.map((x) => x.factors.join('·')).join(' + ')} = ${floats} floats (float32)`;
  return {
    deviceBytes: floats * FLOAT32_BYTES,
    hostBytes: FLOAT64_BYTES * s.nTime * s.nBins,
    formula,
  };
}

export interface AutoChoice {
  strategy: StrategyName;
  encTileSize?: number;
  posTileSize?: number;
  estimatedPeakBytes: number;
  reason: string;
}

/** How many units fit in what the budget leaves after a fixed part; 0 when none does. */
function largestFitting(budgetFloats: number, fixedFloats: number, floatsPerUnit: number): number {
  return Math.max(0, Math.floor((budgetFloats - fixedFloats) / floatsPerUnit));
}

function choice(
  strategy: StrategyName,
  s: ProblemSizes,
  o: TileOptions,
  tiles: { encTileSize?: number; posTileSize?: number },
  reason: string,
): AutoChoice {
  const estimatedPeakBytes = estimatePeakBytes(strategy, s, { ...o, ...tiles }).deviceBytes;
  return { strategy, ...tiles, estimatedPeakBytes, reason: `${reason} (estimated peak ${formatBytes(estimatedPeakBytes)})` };
}

function autoLowD(s: ProblemSizes, o: StrategyOptions, budget: number): AutoChoice {
  const { nEnc: E, nBins: P, nFeatures: D } = s;
  const B = Math.min(o.blockSize, s.nDec);
  const lowD = `D = ${D} ≤ ${COMPENSATED_MAX_FEATURES}`;
  if (o.encTileSize !== undefined && o.encTileSize < E) {
    const why = `${lowD} with encTileSize ${o.encTileSize} < E = ${E}: chunked compensated (e′)`;
    return choice('compensated', s, o, { encTileSize: o.encTileSize }, why);
  }
  const whole = { ...o, encTileSize: undefined };
  if (estimatePeakBytes('compensated', s, whole).deviceBytes <= budget) {
    return choice('compensated', s, whole, {}, `${lowD}: compensated-linear, one matmul per block`);
  }
  const fitted = largestFitting(budget / FLOAT32_BYTES, B * P, P + B);
  const c = Math.min(Math.max(1, fitted), E);
  const tooBig = fitted >= 1 ? '' : '; even one-spike chunks exceed the budget, lower the block size';
  const why =
    `${lowD} but E·P + E·B + B·P exceeds the budget of ${formatBytes(budget)}: streaming, ` +
    `the position kernel in chunks of ${c} spikes${tooBig}`;
  return choice('streaming', s, o, { encTileSize: c }, why);
}

function autoHighD(s: ProblemSizes, o: StrategyOptions, budget: number): AutoChoice {
  const { nEnc: E, nBins: P, nFeatures: D } = s;
  const B = Math.min(o.blockSize, s.nDec);
  const highD = `D = ${D} > ${COMPENSATED_MAX_FEATURES}`;
  const chunkTile = Math.min(o.posTileSize ?? DEFAULT_POS_TILE_SIZE, P);
  if (o.encTileSize !== undefined && o.encTileSize < E) {
    const why = `${highD} with encTileSize ${o.encTileSize} < E = ${E}: online-logsumexp chunks`;
    return choice('chunked', s, o, { encTileSize: o.encTileSize, posTileSize: chunkTile }, why);
  }
  if (estimatePeakBytes('logsumexp', s, o).deviceBytes <= budget) {
    return choice('logsumexp', s, o, {}, `${highD}: log-space logsumexp, B·E·P fits the budget of ${formatBytes(budget)}`);
  }
  const budgetFloats = budget / FLOAT32_BYTES;
  const tp = Math.min(largestFitting(budgetFloats, E * P, B * E), P - 1, o.posTileSize ?? Infinity);
  if (tp >= 1) {
    const why = `${highD} and B·E·P exceeds the budget of ${formatBytes(budget)}: position tiles of ${tp} bins`;
    return choice('logsumexp-tiled', s, o, { posTileSize: tp }, why);
  }
  const fitted = largestFitting(budgetFloats, B * P, P + B + B * chunkTile);
  const c = Math.min(Math.max(1, fitted), E);
  const tooBig = fitted >= 1 ? '' : '; even one-spike chunks exceed the budget, lower the block size';
  const why =
    `${highD} and the E·P position kernel alone exceeds the budget of ${formatBytes(budget)}: ` +
    `streaming online logsumexp, chunks of ${c} spikes${tooBig}`;
  return choice('streaming', s, o, { encTileSize: c, posTileSize: chunkTile }, why);
}

/**
 * Spec §7.7's dispatch with a memory budget, as non_local_detector dispatches (`nld-dispatch`;
 * `auto` weighs its choice against series, autoDispatch.ts). A chunk smaller than E that the user asked for is
 * honoured as the spec does: chunked compensated (e′) at D ≤ 8, online-logsumexp chunks above.
 * Otherwise D ≤ 8 with encoding spikes: compensated, or streaming when E·P + E·B + B·P exceeds
 * the budget; D > 8: logsumexp, position-tiled when B·E·P does not fit, streaming when even the
 * E·P position kernel does not. Streaming rather than e′ or `chunked` is the way down, as in the
 * engine's own dispatch: the engine's e′ builds the whole E·P position factor once per electrode
 * and its `chunked` keeps S·P accumulators, streaming holds neither. Chunk and tile sizes are the
 * largest that keep the estimate under the budget.
 */
export function resolveNldDispatch(s: ProblemSizes, o: StrategyOptions): AutoChoice {
  // a larger budget buys no larger chunk than a backend can hold correctly
  const budget = Math.min(o.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES, MAX_WORKING_SET_BYTES);
  if (s.nEnc === 0) {
    const why = 'no encoding spikes: every spike term is on the LOG_EPS floor, logsumexp handles E = 0';
    return choice('logsumexp', s, o, {}, why);
  }
  return s.nFeatures <= COMPENSATED_MAX_FEATURES ? autoLowD(s, o, budget) : autoHighD(s, o, budget);
}

export function sizesOfElectrode(
  summary: DatasetSummary,
  electrode: DatasetSummary['electrodes'][number],
): ProblemSizes {
  return {
    nEnc: electrode.nEncodingSpikes,
    nDec: electrode.nDecodingSpikes,
    nBins: summary.nBins,
    nFeatures: electrode.nFeatures,
    positionDims: summary.positionDims,
    nTime: summary.nTime,
  };
}

/**
 * The largest electrode's estimate for a strategy (what MemoryStats.estimatedPeakBytes holds):
 * electrodes run one after another, so the peak is the maximum, not the sum. A dispatch is resolved
 * per electrode first (by NLD's rule: `auto`'s series needs the marks).
 */
export function estimateDatasetPeak(
  strategy: StrategyChoice,
  summary: DatasetSummary,
  o: StrategyOptions,
): PeakEstimate & { electrode?: string; strategy: StrategyName } {
  let best: (PeakEstimate & { electrode?: string; strategy: StrategyName }) | undefined;
  for (const e of summary.electrodes) {
    const s = sizesOfElectrode(summary, e);
    let name: StrategyName;
    let tiles: TileOptions = o;
    // the marks decide whether auto runs series, and the summary has none: NLD's dispatch stands in
    if (isDispatch(strategy)) {
      const auto = resolveNldDispatch(s, o);
      name = auto.strategy;
      tiles = {
        ...o,
        encTileSize: auto.encTileSize ?? o.encTileSize,
        posTileSize: auto.posTileSize ?? o.posTileSize,
      };
    } else {
      name = strategy;
    }
    const est = estimatePeakBytes(name, s, tiles);
    if (!best || est.deviceBytes > best.deviceBytes) best = { ...est, electrode: e.name, strategy: name };
  }
  if (best) return best;
  return {
    deviceBytes: 0,
    hostBytes: FLOAT64_BYTES * summary.nTime * summary.nBins,
    formula: 'no electrodes',
    strategy: isDispatch(strategy) ? 'compensated' : strategy,
  };
}
