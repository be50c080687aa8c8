/**
 * `auto`: per electrode, the strategy the calibrated cost model predicts fastest among those whose
 * accuracy bound holds for its data. The candidates are NLD's dispatch (spec §7.7 under the memory
 * budget: exact at any marks) and `series` where its truncation bound is proven for the electrode's
 * decoding spikes. A candidate's time is its work per stage (stageWork.ts, opWork.ts) at the
 * backend's calibrated rates (roofline.ts' ceilings, added as tfjs runs each op in its own pass):
 * a lower bound of each, but one that ranks strategies whose work differs as much as these do.
 *
 * Whether the series reaches a spike depends on the marks, not the sizes, so the engine plans the
 * series and hands the plan's reach in (SeriesReach); without it (the service's estimates, which
 * see sizes only) and without a calibration, `auto` is NLD's dispatch.
 */
import { formatBytes, formatMs } from '../../../shared/format';
import type { Calibration } from './calibrationTypes';
import { COMPENSATED_MAX_FEATURES, DEFAULT_MEMORY_BUDGET_BYTES, DEFAULT_POS_TILE_SIZE } from './constants';
import { defaultEncTileSize, estimatePeakBytes, resolveNldDispatch, type AutoChoice } from './memoryModel';
import { addWork, hostScatter, pieces, seriesFactorWork, seriesTermsWork, type Work } from './opWork';
import { ceilingSeconds } from './roofline';
import { linearPositionKernelWork, MODELLED_STAGES, predictStageWork } from './stageWork';
import type { ProbedStrategy, ProblemSizes, StrategyOptions } from './types';

/** What the series' plan proves for one electrode's decoding spikes (strategies/series/plan.ts). */
export interface SeriesReach {
  /** decoding spikes within the series' proven reach */
  nNear: number;
  /** monomials F of the plan's order: the factor is F × P */
  nFeatures: number;
  /** the fit kept the factor for this electrode (the predict does not build it) */
  factorKept: boolean;
  /** the plan's order, for the reason */
  order: number;
}

/** Seconds a piece of work needs at the calibrated rates. */
export function predictedSeconds(w: Work, c: Calibration): number {
  const s = ceilingSeconds(w, c);
  return s.matmul + s.exp + s.log + s.memory;
}

function tilesOf(choice: AutoChoice, s: ProblemSizes, o: StrategyOptions) {
  return {
    blockSize: Math.max(1, o.blockSize),
    encTileSize: choice.encTileSize ?? o.encTileSize ?? defaultEncTileSize(choice.strategy, s, o),
    posTileSize: choice.posTileSize ?? o.posTileSize ?? DEFAULT_POS_TILE_SIZE,
  };
}

/** The predict work of one electrode under NLD's choice. */
function dispatchWork(choice: AutoChoice, s: ProblemSizes, o: StrategyOptions): Work {
  const stages = predictStageWork(choice.strategy, s, tilesOf(choice, s, o));
  return addWork(...MODELLED_STAGES.map((stage) => stages[stage]));
}

/**
 * The series strategy's predict work: the factor (unless the fit kept it), the terms of the spikes
 * in reach block by block, and compensated on the others (its interpolated form, where it runs, is
 * cheaper: this is an upper bound for it), then the scatter of every term.
 */
export function seriesPredictWork(s: ProblemSizes, reach: SeriesReach, o: Pick<StrategyOptions, 'blockSize'>): Work {
  const { nEnc: E, nBins: P, positionDims: Q } = s;
  const F = reach.nFeatures;
  const parts: Work[] = [hostScatter(s.nDec * P)];
  if (reach.nNear > 0 && !reach.factorKept) parts.push(linearPositionKernelWork(E, P, Q), seriesFactorWork(F, E, P));
  for (const { length: b, count } of pieces(reach.nNear, o.blockSize)) parts.push(...Array<Work>(count).fill(seriesTermsWork(b, F, P)));
  const nFar = s.nDec - reach.nNear;
  if (nFar > 0) {
    const far = { ...s, nDec: nFar };
    const stages = predictStageWork('compensated', far, { blockSize: Math.max(1, o.blockSize), encTileSize: E, posTileSize: DEFAULT_POS_TILE_SIZE });
    // its scatter is in the one above
    parts.push(...MODELLED_STAGES.filter((stage) => stage !== 'scatter').map((stage) => stages[stage]));
  }
  return addWork(...parts);
}

/**
 * Why series is left out on this electrode, or null: its bound would not hold (above
 * COMPENSATED_MAX_FEATURES its far spikes take a product without one), its peak exceeds the
 * budget, or (`measured` false: the cost model's judgement) its series reaches none of the spikes,
 * which the model then rates as compensated plus nothing. A probe that measured series faster
 * overrules only the last: series computes the spikes out of reach exactly (its interpolated
 * handoff on one-dimensional positions, else compensated), and the probe timed that.
 */
function seriesExclusion(s: ProblemSizes, reach: SeriesReach | undefined, o: StrategyOptions, measured = false): string | null {
  // measured, and at most COMPENSATED_MAX_FEATURES features, every spike is exact whatever the reach: no plan needed
  if (!reach && !(measured && s.nFeatures <= COMPENSATED_MAX_FEATURES)) return 'series not planned (marks unknown)';
  if (reach && reach.nNear === 0 && !measured) return `series excluded: its error bound covers none of the ${s.nDec} decoding spikes`;
  if (reach && s.nFeatures > COMPENSATED_MAX_FEATURES && reach.nNear < s.nDec) {
    return `series excluded: its bound covers ${reach.nNear} of ${s.nDec} spikes, and above ${COMPENSATED_MAX_FEATURES} features the others would take the linear direct product, which has no bound`;
  }
  const budget = o.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  const peak = estimatePeakBytes('series', s, o).deviceBytes;
  if (peak > budget) return `series excluded: its estimated peak ${formatBytes(peak)} exceeds the budget of ${formatBytes(budget)}`;
  return null;
}

const ms = (seconds: number): string => formatMs(seconds * 1e3);

/** What a backend's own fused kernel makes of NLD's dispatch: compensated, one kernel per block. */
function dispatchOrFused(s: ProblemSizes, o: StrategyOptions, nld: AutoChoice): AutoChoice {
  if (!o.fusedLikelihood) return nld;
  return { strategy: 'compensated', estimatedPeakBytes: estimatePeakBytes('compensated', s, o).deviceBytes, reason: `compensated as the backend's fused kernel (NLD's dispatch: ${nld.strategy})` };
}

/**
 * `auto` after the probe: series where the probe measured it faster and its bound holds here, else
 * NLD's dispatch (compensated where the backend fuses it); the reason says what was measured, and
 * where the cost model would have chosen otherwise.
 */
function probedChoice(s: ProblemSizes, o: StrategyOptions, probed: ProbedStrategy, nld: AutoChoice, reach?: SeriesReach): AutoChoice {
  const modelled = resolveFastestStrategy(s, { ...o, probed: undefined }, reach);
  const excluded = seriesExclusion(s, reach, o, true);
  const chosen = probed.faster === 'series' && excluded === null
    ? { strategy: 'series' as const, estimatedPeakBytes: estimatePeakBytes('series', s, o).deviceBytes, reason: '' }
    : dispatchOrFused(s, o, nld);
  const why = probed.faster === 'series' && excluded !== null ? `; ${excluded}` : '';
  const disagreed = modelled.strategy !== chosen.strategy ? `; the cost model predicted ${modelled.strategy} (${modelled.reason})` : '';
  return { ...chosen, reason: `measured: ${probed.summary}${why}${disagreed}` };
}

/**
 * The fastest accurate strategy for one electrode: compensated where the executor fuses it into one
 * kernel per block, else NLD's dispatch, or series where its bound covers the spikes and the model
 * predicts it faster. The reason names the predicted times compared
 * or why series was left out.
 */
export function resolveFastestStrategy(s: ProblemSizes, o: StrategyOptions, reach?: SeriesReach): AutoChoice {
  const nld = resolveNldDispatch(s, o);
  if (o.probed && s.nEnc > 0 && s.nDec > 0) return probedChoice(s, o, o.probed, nld, reach);
  if (o.fusedLikelihood && s.nEnc > 0 && s.nDec > 0) {
    return {
      strategy: 'compensated',
      estimatedPeakBytes: estimatePeakBytes('compensated', s, o).deviceBytes,
      reason: `the backend's fused likelihood kernel: compensated in one kernel per block, the mark kernel never in device memory (NLD's dispatch: ${nld.strategy})`,
    };
  }
  const calibration = o.calibration;
  if (!calibration) return { ...nld, reason: `no backend calibration, so NLD's dispatch: ${nld.reason}` };
  if (s.nEnc === 0 || s.nDec === 0) return { ...nld, reason: `nothing to compare (E = ${s.nEnc}, S = ${s.nDec}): ${nld.reason}` };
  const nldSeconds = predictedSeconds(dispatchWork(nld, s, o), calibration);
  const nldText = `${nld.strategy} ${ms(nldSeconds)}`;
  const excluded = seriesExclusion(s, reach, o);
  if (excluded !== null) return { ...nld, reason: `${nldText} predicted; ${excluded}` };
  const seriesSeconds = predictedSeconds(seriesPredictWork(s, reach!, o), calibration);
  const coverage = `order ${reach!.order}, ${reach!.nNear}/${s.nDec} spikes in reach`;
  const compared = `series ${ms(seriesSeconds)} (${coverage}) vs ${nldText} predicted on ${calibration.backend}`;
  if (seriesSeconds < nldSeconds) {
    return { strategy: 'series', estimatedPeakBytes: estimatePeakBytes('series', s, o).deviceBytes, reason: compared };
  }
  return { ...nld, reason: compared };
}
