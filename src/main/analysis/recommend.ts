/**
 * The recommendation: which strategy (and block size) to use for this dataset on this backend,
 * judged only from what was measured here.
 */
import type { StrategyName } from '../../shared/config';
import type { Recommendation, StrategyResult } from '../../shared/report';
import { formatBytes, formatMs, formatRatio } from '../../shared/format';
import { DEFAULT_MEMORY_BUDGET_BYTES } from '../engine/model';
import { agreementOf, type AnalysisInput, concreteStrategy, strategyLabel, warmTotalMs } from './results';

const TILED_BY_ENCODING: readonly StrategyName[] = ['chunked', 'streaming', 'compensated'];

interface Candidate {
  r: StrategyResult;
  name: StrategyName;
  ms: number;
}

/**
 * Among strategies that ran, agree with the reference (allclose, or the same decoded position in
 * at least 99 % of rows) and whose estimated peak fits the memory budget: the lowest warm median
 * encode + decode. The block size is the config's: one run measures one block size, so there is
 * no evidence here for another.
 */
export function recommend(input: AnalysisInput): Recommendation | undefined {
  const budget = input.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  const accepted: Candidate[] = [];
  const skipped: string[] = [];
  for (const r of input.strategies) {
    const name = concreteStrategy(r);
    const ms = warmTotalMs(r);
    if (r.status !== 'ok' || name === undefined || ms === undefined) continue;
    const agreement = agreementOf(r);
    const peak = r.memory?.estimatedPeakBytes;
    if (!agreement.ok) skipped.push(`${strategyLabel(r)} ${agreement.words}`);
    else if (peak !== undefined && peak > budget) skipped.push(`${strategyLabel(r)} needs ${formatBytes(peak)}`);
    else accepted.push({ r, name, ms });
  }
  if (accepted.length === 0) return undefined;
  accepted.sort((x, y) => x.ms - y.ms);
  const best = accepted[0]!;
  const next = accepted[1];
  const peak = best.r.memory?.estimatedPeakBytes;
  const parts = [
    `On ${input.backend.name} (${input.backend.device}) ${best.name} had the lowest warm median encode + decode ` +
      `(${formatMs(best.ms)}` +
      (next ? `; next ${strategyLabel(next.r)} ${formatMs(next.ms)}, ${formatRatio(next.ms / best.ms)} slower)` : ')'),
    agreementOf(best.r).words,
    `fits the ${formatBytes(budget)} budget` + (peak !== undefined ? ` (estimated peak ${formatBytes(peak)})` : ''),
  ];
  const skippedWords = skipped.length > 0 ? `; not chosen: ${skipped.join(', ')}` : '';
  const rec: Recommendation = {
    strategy: best.name,
    blockSize: input.blockSize ?? input.dataset.blockSize,
    reason: `${parts.join(', ')}${skippedWords}.`,
  };
  if (input.encTileSize !== undefined && TILED_BY_ENCODING.includes(best.name)) rec.encTileSize = input.encTileSize;
  return rec;
}
