/**
 * Rows for the Results view's accuracy table: each strategy's decoding error against the true
 * position beside what guessing a bin would score on the same data, so a lab user can tell a
 * decoder that finds the animal from one that only runs fast. Pure.
 */
import type { DatasetSummary } from '../../../shared/dataset';
import type { DecodingAccuracy, StrategyResult } from '../../../shared/report';
import { formatShare } from '../../../shared/format';
import { formatNumber } from '../lib/format';

/** A median error at most this share of chance's, or a share within the radius this many times chance's, reads as better than chance. */
const BETTER_MEDIAN_RATIO = 0.75;
const BETTER_SHARE_RATIO = 1.5;

export interface AccuracyRow {
  strategy: string;
  medianError: string;
  shareWithin: string;
  rows: number;
  /** how the strategy compares with guessing, in words; empty where there is no chance level */
  verdict: string;
  nearChance: boolean;
}

export interface AccuracyTable {
  /** "cm", or the neutral "position units" where the data name none */
  units: string;
  rows: AccuracyRow[];
  chance?: { medianError: string; shareWithin: string };
}

/** How an accuracy compares with guessing a bin, in words; '' where the data have no chance level. */
export function accuracyVerdict(a: DecodingAccuracy, chance: DecodingAccuracy | undefined): { verdict: string; nearChance: boolean } {
  if (!chance) return { verdict: '', nearChance: false };
  const better = a.medianAbsError <= BETTER_MEDIAN_RATIO * chance.medianAbsError || a.shareWithin10 >= BETTER_SHARE_RATIO * chance.shareWithin10;
  if (!better) return { verdict: 'near chance: the decoder finds no place information in these marks', nearChance: true };
  const times = chance.shareWithin10 > 0 ? `${formatNumber(a.shareWithin10 / chance.shareWithin10, 2)}× chance's share within the radius` : 'above chance';
  return { verdict: `better than chance (${times})`, nearChance: false };
}

/** Null when no strategy has an accuracy (the data carry no true position, or nothing finished). */
export function accuracyTable(strategies: readonly StrategyResult[], dataset: DatasetSummary): AccuracyTable | null {
  const judged = strategies.filter((s): s is StrategyResult & { accuracy: DecodingAccuracy } => s.status === 'ok' && s.accuracy !== undefined);
  if (judged.length === 0) return null;
  const unitName = judged.find((s) => s.accuracy.units)?.accuracy.units;
  const suffix = unitName ? ` ${unitName}` : '';
  const chance = dataset.chanceAccuracy;
  const table: AccuracyTable = {
    units: unitName ?? 'position units',
    rows: judged.map((s) => ({
      strategy: s.strategy,
      medianError: `${formatNumber(s.accuracy.medianAbsError, 3)}${suffix}`,
      shareWithin: formatShare(s.accuracy.shareWithin10),
      rows: s.accuracy.rows,
      ...accuracyVerdict(s.accuracy, chance),
    })),
  };
  if (chance) table.chance = { medianError: `${formatNumber(chance.medianAbsError, 3)}${suffix}`, shareWithin: formatShare(chance.shareWithin10) };
  return table;
}
