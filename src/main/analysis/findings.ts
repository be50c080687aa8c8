/**
 * Findings: what a person should know about a run, each with a stable id (kind, then
 * `:strategy` where it is about one), a severity, and one sentence with the numbers and what to
 * do. This file holds the performance, memory and device findings; numericFindings.ts the
 * numerical ones.
 */
import { isDispatch } from '../../shared/config';
import type { Finding, StrategyResult } from '../../shared/report';
import { formatBytes, formatMs, formatShare, formatRatio } from '../../shared/format';
import { DEFAULT_MEMORY_BUDGET_BYTES, estimateDatasetPeak } from '../engine/model';
import { accuracyFindings } from './accuracy';
import { deviceFinding, stageClockFindings, warmCompilationFindings } from './deviceFindings';
import { numericFindings } from './numericFindings';
import { agreementOf, type AnalysisInput, describeSize, strategyLabel, totalTiming, warmTotalMs } from './results';
import { precisionOf } from './stopping';
import { COLD_START_RATIO, COLD_START_SHARE, IMPRECISE_HALF_WIDTH, SLOWER_RATIO } from './thresholds';
import { compareResults, formatMedianWithCi, formatRatioCi, sameStrategy } from './verdicts';

function coldStartFindings(input: AnalysisInput): Finding[] {
  const out: Finding[] = [];
  let coldMs = input.backend.initMs;
  let measuredMs = input.backend.initMs;
  for (const r of input.strategies) {
    const t = totalTiming(r);
    if (r.status !== 'ok' || !t) continue;
    measuredMs += t.firstMs + t.samplesMs.reduce((s, x) => s + x, 0);
    if (t.n === 0) continue;
    coldMs += Math.max(0, t.firstMs - t.medianMs);
    const ratio = t.firstMs / t.medianMs;
    if (t.medianMs > 0 && ratio > COLD_START_RATIO) {
      const label = strategyLabel(r);
      out.push({
        id: `cold-start-dominates:${label}`,
        severity: 'info',
        strategy: label,
        value: ratio,
        message:
          `${label}: the first call took ${formatMs(t.firstMs)}, ${formatRatio(ratio)} the warm median of ` +
          `${formatMs(t.medianMs)} (kernel initialization and shader/program compilation); warm up before ` +
          `timing and reuse one engine for many decodes instead of starting a new one each time.`,
      });
    }
  }
  const share = measuredMs > 0 ? coldMs / measuredMs : 0;
  if (share >= COLD_START_SHARE) {
    out.unshift({
      id: 'cold-start-dominates',
      severity: 'info',
      value: share,
      message:
        `Cold start is ${formatShare(share)} of this run's measured time ` +
        `(backend init ${formatMs(input.backend.initMs)} ` +
        `plus first-call overhead, ${formatMs(coldMs)} of ${formatMs(measuredMs)}): for work this small the ` +
        `one-time costs dominate, so keep the engine warm between decodes and compare warm medians.`,
    });
  }
  return out;
}

/**
 * A strategy well behind the fastest (more than SLOWER_RATIO) is named "slower" only when the
 * interval of the ratio says so; a wide interval that still holds 1 is "no significant
 * difference", and single repeats give no verdict at all. Never a strategy against itself.
 */
function slowerFindings(input: AnalysisInput): Finding[] {
  const timed = input.strategies
    .filter((r) => r.status === 'ok')
    .map((r) => ({ r, ms: warmTotalMs(r) }))
    .filter((x): x is { r: StrategyResult; ms: number } => x.ms !== undefined && x.ms > 0);
  if (timed.length < 2) return [];
  const fastest = timed.reduce((best, x) => (x.ms < best.ms ? x : best));
  const fastLabel = strategyLabel(fastest.r);
  const fastAgreement = agreementOf(fastest.r);
  const advice = fastAgreement.ok
    ? `prefer ${fastLabel} here`
    : `but ${fastLabel} ${fastAgreement.words}, so check that first`;
  const out: Finding[] = [];
  for (const x of timed) {
    const ratio = x.ms / fastest.ms;
    if (x === fastest || sameStrategy(x.r, fastest.r) || !(ratio > SLOWER_RATIO)) continue;
    const label = strategyLabel(x.r);
    const c = compareResults(x.r, fastest.r);
    const times = `warm median encode + decode ${formatMs(x.ms)} vs ${formatMs(fastest.ms)}; ${describeSize(input.dataset)}`;
    if (c?.verdict === 'slower') {
      out.push({
        id: `strategy-slower:${label}`, severity: 'info', strategy: label, value: ratio,
        message: `${label} is ${formatRatio(ratio)} slower than ${fastLabel} at this size (${times}; ratio ` +
          `${formatRatioCi(c.ratio, c.ratioCi95)}); ${advice}.`,
      });
    } else {
      const why = c
        ? `the 95 % interval of the ratio (${formatRatioCi(c.ratio, c.ratioCi95)}) holds 1: no significant difference`
        : 'single repeats give no interval, so no verdict';
      out.push({
        id: `strategy-not-significant:${label}`, severity: 'info', strategy: label, value: ratio,
        message: `${label} took ${formatRatio(ratio)} the time of ${fastLabel} (${times}), but ${why}; ` +
          'measure again with --repeats auto before choosing between them.',
      });
    }
  }
  return out;
}

/** A total whose interval is wider than IMPRECISE_HALF_WIDTH of its median: smaller differences are noise. */
function precisionFindings(input: AnalysisInput): Finding[] {
  const out: Finding[] = [];
  for (const r of input.strategies) {
    const t = totalTiming(r);
    const half = t && r.status === 'ok' ? precisionOf(t) : undefined;
    if (!t || half === undefined || !(half > IMPRECISE_HALF_WIDTH)) continue;
    const label = strategyLabel(r);
    const outliers = t.outliers?.length ? `, ${t.outliers.length} outlier${t.outliers.length === 1 ? '' : 's'} among them` : '';
    const stopped = t.stoppedBy === 'time' || t.stoppedBy === 'max-repeats'
      ? `the repeats stopped at the ${t.stoppedBy === 'time' ? 'time budget' : 'repeat cap'} before reaching the target; `
      : '';
    out.push({
      id: `timing-imprecise:${label}`, severity: 'info', strategy: label, value: half,
      message: `${label}: the warm median encode + decode is ${formatMedianWithCi(t)}, ±${formatShare(half)} over ` +
        `${t.n} repeats${outliers}; ${stopped}differences smaller than that are noise: use --repeats auto ` +
        '(with a larger --max-time) or a quieter machine.',
    });
  }
  return out;
}

/** The machine was busy while the strategies measured: their timings are likely disturbed. */
function loadFindings(input: AnalysisInput): Finding[] {
  const load = input.load;
  if (!load?.busy) return [];
  const avg = Math.max(load.loadAverageStart[0] ?? 0, load.loadAverageEnd[0] ?? 0);
  const disturbed = input.strategies.filter((r) => r.load?.busy).map(strategyLabel);
  const others = load.otherCpuShare !== undefined ? `; other processes used ${formatShare(load.otherCpuShare)} of the CPU time` : '';
  const which = disturbed.length > 0 ? ` (while ${disturbed.join(', ')} measured)` : '';
  return [{
    id: 'machine-busy',
    severity: 'warning',
    value: avg,
    message: `Timings are likely disturbed: load average ${avg.toFixed(2)} on ${input.cores ?? '?'} cores${others}${which}; ` +
      'repeat the run on a quiet machine, or compare only runs measured under the same load.',
  }];
}

function memoryFindings(input: AnalysisInput): Finding[] {
  const budget = input.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES;
  const which = input.memoryBudgetBytes === undefined ? 'the default memory budget' : 'the memory budget';
  const budgetWords = `${which} of ${formatBytes(budget)}`;
  const out: Finding[] = [];
  for (const r of input.strategies) {
    const m = r.memory;
    if (!m) continue;
    const label = strategyLabel(r);
    if (m.estimatedPeakBytes > budget) {
      const auto = estimateDatasetPeak('auto', input.dataset, {
        blockSize: input.blockSize ?? input.dataset.blockSize,
        encTileSize: input.encTileSize,
        posTileSize: input.posTileSize,
        memoryBudgetBytes: budget,
      });
      const advice = isDispatch(r.strategy) || auto.deviceBytes > budget
        ? 'use a smaller --block-size or a larger memory budget'
        : `use --strategy auto (here it picks ${auto.strategy}, about ${formatBytes(auto.deviceBytes)}) ` +
          'or a smaller --block-size';
      out.push({
        id: `memory-over-budget:${label}`,
        severity: 'warning',
        strategy: label,
        value: m.estimatedPeakBytes,
        message:
          `The estimated peak of ${label} (${formatBytes(m.estimatedPeakBytes)} for the largest electrode) exceeds ` +
          `${budgetWords}; ${advice}.`,
      });
    } else if (m.measuredPeakTensorBytes > budget) {
      out.push({
        id: `memory-measured-over-budget:${label}`,
        severity: 'warning',
        strategy: label,
        value: m.measuredPeakTensorBytes,
        message:
          `${label} held ${formatBytes(m.measuredPeakTensorBytes)} in tensors at its peak, over ${budgetWords}, ` +
          `although its formula estimates ${formatBytes(m.estimatedPeakBytes)}; something outside the strategy's ` +
          `formula holds memory (fit tensors, backend caches): lower --block-size or use a tiled strategy.`,
      });
    }
  }
  return out;
}

function leakFindings(strategies: readonly StrategyResult[]): Finding[] {
  const out: Finding[] = [];
  for (const r of strategies) {
    const l = r.leak;
    if (!l || !(l.leaked || l.tensorsAfter > l.tensorsBefore)) continue;
    const label = strategyLabel(r);
    const perRepeat = l.perRepeat.length > 0 ? Math.max(...l.perRepeat) : l.tensorsAfter - l.tensorsBefore;
    out.push({
      id: `tensor-leak:${label}`,
      severity: 'error',
      strategy: label,
      value: perRepeat,
      message:
        `${label} leaks ${perRepeat} tensor${perRepeat === 1 ? '' : 's'} per repeat (${l.tensorsBefore} before, ` +
        `${l.tensorsAfter} after): a tensor created in a step is never disposed; wrap the step in tf.tidy or ` +
        `dispose it, or memory grows with every decode.`,
    });
  }
  return out;
}

function failureFindings(strategies: readonly StrategyResult[]): Finding[] {
  return strategies
    .filter((r) => r.status === 'failed')
    .map((r) => {
      const label = strategyLabel(r);
      const why = r.error ? `${r.error.message} [${r.error.code}]` : 'no error was recorded';
      return {
        id: `strategy-failed:${label}`,
        severity: 'error' as const,
        strategy: label,
        message: `${label} failed: ${why}; its timings and agreement are missing from this report.`,
      };
    });
}

/** the width of one position bin along a 1-D track, for the accuracy finding's tolerance */
function binSizeOf({ dataset }: AnalysisInput): number | undefined {
  const [lo, hi] = dataset.positionRange;
  return dataset.nBins > 0 && hi > lo ? (hi - lo) / dataset.nBins : undefined;
}

/** All findings of a run, most severe first; stable within a severity. */
export function deriveFindings(input: AnalysisInput): Finding[] {
  const all = [
    ...failureFindings(input.strategies),
    ...deviceFinding(input.requestedBackend, input.backend),
    ...numericFindings(input),
    ...leakFindings(input.strategies),
    ...warmCompilationFindings(input.strategies),
    ...stageClockFindings(input.strategies),
    ...memoryFindings(input),
    ...loadFindings(input),
    ...coldStartFindings(input),
    ...precisionFindings(input),
    ...slowerFindings(input),
    ...accuracyFindings(input.strategies, binSizeOf(input)),
  ];
  const rank = { error: 0, warning: 1, info: 2 } as const;
  return all
    .map((f, i) => ({ f, i }))
    .sort((x, y) => rank[x.f.severity] - rank[y.f.severity] || x.i - y.i)
    .map((x) => x.f);
}
