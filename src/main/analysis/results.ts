/**
 * What the findings and the recommendation read from a run, and small views of a strategy's
 * result they share.
 */
import { isDispatch, type BackendChoice, type StrategyName } from '../../shared/config';
import type { DatasetSummary } from '../../shared/dataset';
import type { BackendInfo, MachineLoad, PosteriorReport, StrategyResult, TimingStats } from '../../shared/report';
import { isExternalEngineName } from '../../shared/externalEngines';
import { formatAbsDiff, formatShare } from '../../shared/format';
import { addTimings } from './stats';
import { ARGMAX_AGREEMENT_MIN } from './thresholds';

export interface AnalysisInput {
  strategies: readonly StrategyResult[];
  backend: BackendInfo;
  /** what the user asked for: `auto` and the GPU backends are judged against the device used */
  requestedBackend: BackendChoice;
  dataset: DatasetSummary;
  /** the run's budget; DEFAULT_MEMORY_BUDGET_BYTES when the config has none */
  memoryBudgetBytes?: number;
  /** the config's block size; the dataset's when the config has none */
  blockSize?: number;
  encTileSize?: number;
  posTileSize?: number;
  /** the machine's load while the strategies measured */
  load?: MachineLoad;
  /** logical cores of the machine, for the load's words */
  cores?: number;
  /** the posterior the run ended with: its stage's memory is held besides the likelihood's, outside the budget */
  posterior?: Pick<PosteriorReport, 'model' | 'method' | 'memory'>;
}

/** "compensated", or "auto (compensated)" when a dispatch resolved to one strategy everywhere. */
export function strategyLabel(r: StrategyResult): string {
  if (!isDispatch(r.strategy)) return r.strategy;
  const names = [...new Set(r.resolved)];
  return names.length > 0 ? `${r.strategy} (${names.join(', ')})` : r.strategy;
}

/** The one concrete strategy a result stands for; undefined for a dispatch that mixed strategies. */
export function concreteStrategy(r: StrategyResult): StrategyName | undefined {
  if (isExternalEngineName(r.strategy)) return undefined;
  if (!isDispatch(r.strategy)) return r.strategy;
  const names = [...new Set(r.resolved)];
  return names.length === 1 ? names[0] : undefined;
}

/** Encode + decode per call: the stored total, else the two summed call by call, else decode. */
export function totalTiming(r: StrategyResult): TimingStats | undefined {
  if (r.total) return r.total;
  if (r.encode && r.decode) return addTimings(r.encode, r.decode);
  return r.decode;
}

/** Warm median of the total, the figure strategies are ranked by. */
export function warmTotalMs(r: StrategyResult): number | undefined {
  const t = totalTiming(r);
  return t && Number.isFinite(t.medianMs) ? t.medianMs : undefined;
}

export function describeSize(d: DatasetSummary): string {
  const dims = d.featureDims.length > 0 ? d.featureDims.join('/') : '0';
  return (
    `${d.nElectrodes} electrodes, ${d.nEncodingSpikes} encoding and ${d.nDecodingSpikes} decoding spikes, ` +
    `${d.nBins} bins, D = ${dims}`
  );
}

/**
 * Whether a strategy may stand in for the reference: allclose, or the same decoded position in
 * at least ARGMAX_AGREEMENT_MIN of rows; with no evidence it is not held against it. Words for
 * the reason either way.
 */
export function agreementOf(r: StrategyResult): { ok: boolean; words: string } {
  if (r.strategy === 'reference') return { ok: true, words: 'is the reference' };
  const g = r.agreementWithReference ?? r.agreementWithExpected;
  if (!g) return { ok: true, words: 'agreement was not checked' };
  if (g.allclose) return { ok: true, words: `agrees with ${g.against} (max |diff| ${formatAbsDiff(g.maxAbsDiff)})` };
  if (g.argmaxAgreement >= ARGMAX_AGREEMENT_MIN) {
    return { ok: true, words: `decodes the same position as ${g.against} in ${formatShare(g.argmaxAgreement)} of rows` };
  }
  return { ok: false, words: `disagrees with ${g.against} (argmax agreement ${formatShare(g.argmaxAgreement)})` };
}
