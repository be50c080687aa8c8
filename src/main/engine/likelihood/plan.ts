/**
 * A non-local predict's plan: per electrode, what its decoding spikes add (nothing, the floor, or
 * terms), the rows they land in, and the strategy its terms are computed with, resolved here once
 * with the dispatch's reason. Whoever computes the terms (one thread, or the pool's workers) runs
 * the plan as it is given and chooses nothing.
 *
 * `auto` weighs series by what its error bound proves for the electrode's marks and whether the fit
 * kept its factor. Both are facts of the fitted electrode (the encoding marks as the fit holds them,
 * the position cache), which live where the electrode was fitted: the plan asks the executor for
 * them (executor.ts), and only when `auto` can use them.
 */
import type { StrategyChoice } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { COMPENSATED_MAX_FEATURES, electrodeStrategy, type SeriesReach, type StrategyOptions, type TileChoice } from '../model';
import { type EncodingModel, spikeRows, gatherOrAll, inBoundsIndices } from '../fit';
import { seriesReach } from '../strategies';

/** In-bounds decoding spikes of one electrode and their output rows. */
export interface DecodingSpikes {
  times: Float64Array;
  features: Float64Array;
  rows: Int32Array;
}

/** Electrode e's decoding spikes inside the grid; the dataset's own arrays where every spike is (they are only read). */
export function decodingSpikes(dataset: Dataset, e: number): DecodingSpikes {
  const el = dataset.electrodes[e]!;
  const time = dataset.time;
  const keep = time.length > 0 ? inBoundsIndices(el.decodingSpikeTimes, time[0]!, time[time.length - 1]!) : new Int32Array(0);
  const times = gatherOrAll(el.decodingSpikeTimes, keep);
  return { times, features: gatherOrAll(el.decodingFeatures, keep, el.nFeatures), rows: spikeRows(times, time) };
}

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

/** One electrode's in-bounds decoding marks. */
export interface ElectrodeMarks {
  electrode: number;
  /** row-major (nDec × D) */
  marks: Float64Array;
  nDec: number;
}

/** What computing one electrode's terms takes: its marks and the strategy the plan resolved for it. */
export interface PlannedTerms extends ElectrodeMarks {
  choice: TileChoice;
}

export interface ElectrodePlan extends PlannedTerms {
  kind: ElectrodeTermsKind;
  /** output row of each in-bounds decoding spike */
  rows: Int32Array;
}

export interface NonlocalPlan {
  /** what was asked for: a strategy, or a dispatch the choices resolved */
  strategy: StrategyChoice;
  nTime: number;
  /** every electrode, in electrode order */
  electrodes: ElectrodePlan[];
}

/** The fitted model's sizes a plan is made from, wherever its electrodes live. */
export interface PlannedModel {
  nBins: number;
  /** encoding spikes the fit kept, per electrode */
  nEnc: ArrayLike<number>;
  summedGroundProcessIntensity: Float64Array;
}

/** Where the plan asks for what only the fitted electrodes know (the executor, executor.ts). */
export interface ReachSource {
  readonly model: PlannedModel;
  /** per electrode asked, in order: what series' bound proves for its marks, and whether the fit kept its factor */
  seriesReach(asks: readonly ElectrodeMarks[]): Promise<SeriesReach[]>;
  /** whether the executor runs compensated as one fused kernel per block on this shape (absent: never) */
  fusedLikelihood?(nEnc: number, nBins: number, nFeatures: number): boolean;
}

/** What series' bound proves for electrode e's decoding marks, against the model that holds the electrode. */
export function seriesReachOf(model: EncodingModel, ask: ElectrodeMarks): SeriesReach {
  const e = ask.electrode;
  const fitted = model.electrodes[e]!;
  return seriesReach({
    encMarks: fitted.encFeatures, nEnc: fitted.nEnc, waveformStd: fitted.waveformStd, decMarks: ask.marks, nDec: ask.nDec,
    factorKept: (kind) => model.positionCache.has(`electrode ${e} ${kind}`),
  });
}

/**
 * Electrodes whose choice weighs series' reach: `auto` with a calibration, where there is something
 * to compare. After a probe that measured series faster only those whose far spikes would lose
 * their bound (above COMPENSATED_MAX_FEATURES): elsewhere series is exact whatever its reach, and
 * planning it per window costs what the series strategy plans again.
 */
function reachAsks(strategy: StrategyChoice, options: StrategyOptions, model: PlannedModel, marks: ElectrodeMarks[], nFeatures: (e: number) => number): ElectrodeMarks[] {
  if (strategy !== 'auto' || (options.calibration === undefined && options.probed === undefined)) return [];
  const asked = marks.filter((m) => model.nEnc[m.electrode]! > 0 && m.nDec > 0);
  return options.probed?.faster === 'series' ? asked.filter((m) => nFeatures(m.electrode) > COMPENSATED_MAX_FEATURES) : asked;
}

/** The plan of a predict of `strategy` on dataset's grid: every electrode's spikes and strategy, resolved once. */
export async function planNonlocal(source: ReachSource, dataset: Dataset, strategy: StrategyChoice, options: StrategyOptions): Promise<NonlocalPlan> {
  const { model } = source;
  const nTime = dataset.time.length;
  const spikes = dataset.electrodes.map((_el, e) => decodingSpikes(dataset, e));
  const marks = spikes.map((s, e) => ({ electrode: e, marks: s.features, nDec: s.times.length }));
  const asks = reachAsks(strategy, options, model, marks, (e) => dataset.electrodes[e]!.nFeatures);
  const reaches = new Map<number, SeriesReach>();
  if (asks.length > 0) (await source.seriesReach(asks)).forEach((reach, i) => reaches.set(asks[i]!.electrode, reach));
  const electrodes = dataset.electrodes.map((el, e): ElectrodePlan => {
    const { nDec } = marks[e]!;
    const nEnc = model.nEnc[e]!;
    const sizes = { nEnc, nDec, nBins: model.nBins, nFeatures: el.nFeatures, positionDims: dataset.positionDims, nTime };
    const fused = strategy === 'auto' && source.fusedLikelihood?.(nEnc, model.nBins, el.nFeatures) === true;
    const choice = electrodeStrategy(strategy, sizes, fused ? { ...options, fusedLikelihood: true } : options, reaches.get(e));
    return { ...marks[e]!, choice, kind: electrodeTermsKind(nDec, nEnc), rows: spikes[e]!.rows };
  });
  return { strategy, nTime, electrodes };
}
