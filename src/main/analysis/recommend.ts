/**
 * The recommendation: which strategy (and block size) to use for this dataset on this backend,
 * judged only from what was measured here. The runner-up is the best other strategy (auto counts
 * as what it resolved to, so a strategy never runs up against itself), and the two are told apart
 * only as far as the interval of their ratio allows.
 */
import type { StrategyName } from '../../shared/config';
import type { Recommendation, StrategyResult } from '../../shared/report';
import { formatBytes, formatMs, formatRatio, formatShare } from '../../shared/format';
import { DEFAULT_MEMORY_BUDGET_BYTES } from '../engine/model';
import { agreementOf, type AnalysisInput, concreteStrategy, strategyLabel, totalTiming, warmTotalMs } from './results';
import { compareResults, formatMedianWithCi, formatRatioCi } from './verdicts';

const TILED_BY_ENCODING: readonly StrategyName[] = ['chunked', 'streaming', 'compensated'];

interface Candidate {
  r: StrategyResult;
  name: StrategyName;
  ms: number;
}

/** The opening sentence: the lowest median and how the runner-up compares, in the intervals' terms. */
function rankingWords(input: AnalysisInput, best: Candidate, next: Candidate | undefined): { words: string; runnerUp?: Recommendation['runnerUp'] } {
  const lowest = `On ${input.backend.name} ${best.name} had the lowest warm median encode + decode`;
  const bestTime = formatMedianWithCi(totalTiming(best.r)!);
  if (!next) {
    // alone and called once (a decode): there is no warm median, nor anything to be lowest among
    if (totalTiming(best.r)!.n === 0) return { words: `On ${input.backend.name} (${input.backend.device}) ${best.name} took ${formatMs(best.ms)} to encode and decode, in one call` };
    return { words: `${lowest}, ${bestTime}` };
  }
  const c = compareResults(next.r, best.r);
  if (!c && totalTiming(best.r)!.n === 0) {
    // a run stopped before its repeats (cancelled, failed) reports the first calls alone
    return {
      words: `On ${input.backend.name} ${best.name} took the least time in its first call, ${formatMs(best.ms)}; next ${next.name} ${formatMs(next.ms)}, ` +
        `${formatRatio(next.ms / best.ms)} the time, but first calls carry start-up work and give no interval to tell them apart`,
    };
  }
  if (!c) {
    // one repeat on a side: no interval, so no verdict either
    return {
      words: `${lowest}, ${formatMs(best.ms)}; next ${next.name} ${formatMs(next.ms)}, ${formatRatio(next.ms / best.ms)} the time, ` +
        'but single repeats give no interval to tell them apart (use --repeats auto)',
    };
  }
  const runnerUp = { ...c, strategy: next.name };
  if (c.verdict === 'no significant difference') {
    return {
      runnerUp,
      // the backend's device is said where the run is described; here its name is enough
      words: `On ${input.backend.name} ${best.name} and ${next.name} show no significant difference: ` +
        `${next.name} takes ${formatRatioCi(c.ratio, c.ratioCi95)} the time of ${best.name}; ${best.name} had the lower warm ` +
        `median encode + decode (${formatMs(best.ms)} vs ${formatMs(next.ms)}), so either will do`,
    };
  }
  return {
    runnerUp,
    words: `${lowest}, ${bestTime}; the runner-up ${next.name} is ${c.verdict}: ${formatMedianWithCi(totalTiming(next.r)!)}, ` +
      `${formatRatioCi(c.ratio, c.ratioCi95)} the time`,
  };
}

/**
 * The two were timed one after the other: when the machine was busy while either measured, other
 * processes' share can differ between them, and the intervals (which hold each one's own noise)
 * cannot tell that apart from a difference between the strategies.
 */
function disturbedWords(best: Candidate, next: Candidate | undefined): string {
  const measured = next ? [best, next] : [best];
  if (!measured.some((c) => c.r.load?.busy)) return '';
  const shares = measured
    .filter((c) => c.r.load?.otherCpuShare !== undefined)
    .map((c) => `${formatShare(c.r.load!.otherCpuShare!)} while ${c.name} measured`);
  const which = shares.length > 0 ? ` (other processes took ${shares.join(', ')})` : '';
  return ` The machine was busy${which}: this ordering may come from the load rather than the strategies; measure again on a quiet machine.`;
}

/**
 * The budget covers the likelihood's tensors; a run that ends with a posterior also holds the
 * stage's typed arrays (measured, else its estimate by posteriorWork.ts's formula), which the peak
 * must not hide.
 */
function posteriorWords(input: AnalysisInput): string {
  const p = input.posterior;
  if (!p?.memory) return '';
  const held = p.memory.measuredBytes > 0
    ? `${formatBytes(p.memory.measuredBytes)} of typed arrays besides (measured; estimated ${formatBytes(p.memory.estimatedBytes)})`
    : `an estimated ${formatBytes(p.memory.estimatedBytes)} of typed arrays besides`;
  return `; the ${p.model} posterior (${p.method}) holds ${held}, outside the budget`;
}

/**
 * What the budget is checked against, and beside it what the process measured: an estimate of one
 * electrode's tensors (a few MiB) read as the run's peak beside an engine that held a GiB.
 */
function memoryWords(input: AnalysisInput, best: Candidate): string {
  const peak = best.r.memory?.estimatedPeakBytes;
  const rss = best.r.memory?.peakRssBytes;
  const estimate = peak !== undefined ? ` (the budget is for the likelihood's tensors: an estimated ${formatBytes(peak)} for the largest electrode${posteriorWords(input)})` : '';
  const measured = rss !== undefined && Number.isFinite(rss) ? `; the engine process peaked at ${formatBytes(rss)} in all (measured)` : '';
  return `${estimate}${measured}`;
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
  const next = accepted.find((c) => c.name !== best.name);
  const ranking = rankingWords(input, best, next);
  // two sentences: how it ranks, then what it is (a verb phrase of its own, not a list run on after the ranking)
  const about = `${best.name} ${agreementOf(best.r).words} and fits the ${formatBytes(budget)} budget${memoryWords(input, best)}`;
  const parts = [`${ranking.words}. ${about}`];
  const skippedWords = skipped.length > 0 ? `; not chosen: ${skipped.join(', ')}` : '';
  const rec: Recommendation = {
    strategy: best.name,
    blockSize: input.blockSize ?? input.dataset.blockSize,
    reason: `${parts.join(', ')}${skippedWords}.${disturbedWords(best, next)}`,
  };
  if (input.encTileSize !== undefined && TILED_BY_ENCODING.includes(best.name)) rec.encTileSize = input.encTileSize;
  if (ranking.runnerUp) rec.runnerUp = ranking.runnerUp;
  return rec;
}
