/**
 * Rows of the memory estimate table. The service answers one estimate per chosen strategy, in the
 * order asked, naming the strategy the formula describes: for `auto` that is the strategy auto
 * would pick, so the row is labelled with both ("auto → compensated") and keyed by the choice.
 * A run that ends with a posterior gets a row per posterior method after them: the stage's own
 * host memory, a different memory from the strategies' tensors.
 */
import type { MemoryEstimate, PosteriorMemoryEstimate } from '../../../shared/api';
import type { StrategyChoice } from '../../../shared/config';

export interface EstimateRow {
  /** what the person chose: a strategy or auto; unique per row */
  choice: string;
  /** "compensated", or "auto → compensated" */
  label: string;
  peakBytes: number;
  formula: string;
}

export function estimateRows(chosen: readonly StrategyChoice[], estimates: readonly MemoryEstimate[]): EstimateRow[] {
  // answers for an older choice list cannot be matched up by position
  const zipped = chosen.length === estimates.length;
  const seen = new Set<string>();
  const rows: EstimateRow[] = [];
  estimates.forEach((e, i) => {
    const choice: string = zipped ? chosen[i]! : e.strategy;
    if (seen.has(choice)) return;
    seen.add(choice);
    const label = choice === e.strategy ? e.strategy : `${choice} → ${e.strategy}`;
    rows.push({ choice, label, peakBytes: e.peakBytes, formula: e.formula });
  });
  return rows;
}

/** The posterior stage's rows, one per method the run times: "decoder posterior, structured", keyed by the method. */
export function posteriorEstimateRows(estimates: readonly PosteriorMemoryEstimate[]): EstimateRow[] {
  return estimates.map((e) => ({
    choice: `posterior-${e.method}`,
    label: `${e.model} posterior, ${e.method}`,
    peakBytes: e.peakBytes,
    formula: e.formula,
  }));
}
