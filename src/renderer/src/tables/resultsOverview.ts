/**
 * The overview at the top of Results, for every kind of run (a profiling run, a decode, a sweep's
 * point): the fastest strategy and by how much, the accuracy of what the lab will read (the
 * posterior where there is one), where the time goes, memory against the machine, the whole
 * recording, and the caveats. Each part is null where it does not apply, so the view shows no
 * empty panel. Pure; times in milliseconds.
 */
import type { DecodingAccuracy, Report, StrategyComparison, StrategyResult } from '../../../shared/report';
import { CHANCE_RADIUS } from '../../../shared/chanceAccuracy';
import { formatMs, formatRatio, formatShare } from '../../../shared/format';
import { projectionSentence } from '../../../shared/projection';
import { accuracyVerdict } from './accuracyRows';
import { formatNumber } from '../lib/format';
import { memoryOverview, type MemoryOverview } from './overviewMemory';
import { computeStagesOf, phasesOf, type StageBar } from './overviewStages';

export type { MemoryOverview } from './overviewMemory';
export { segmentLabel, type StageBar, type StageSegment } from './overviewStages';

/** A card's figure in a few words, then the sentence that qualifies it. */
export interface Headed {
  headline: string;
  detail: string;
}

export interface AccuracyOverview extends Headed {
  /** what was judged: "detector posterior", "auto → compensated likelihood" */
  subject: string;
  nearChance: boolean;
}

export interface ResultsOverview {
  speed: Headed | null;
  accuracy: AccuracyOverview | null;
  /** the run's parts: fit, likelihood, local likelihood, filter, smoother */
  stages: StageBar | null;
  /** inside the fit and the likelihood of a profiling run: each stage's own time */
  compute: StageBar | null;
  memory: MemoryOverview | null;
  projection: string | null;
  /** what to keep in mind reading the numbers; empty when nothing is known to disturb them */
  caveats: string[];
  /** whether the machine's load was recorded at all (older runs: no caveat can be told) */
  loadRecorded: boolean;
}

type Timed = StrategyResult & { total: NonNullable<StrategyResult['total']> };

/** the finished strategies with a total, fastest first */
function timedOf(report: Report): Timed[] {
  const timed = report.strategies.filter((s): s is Timed => s.status === 'ok' && s.total !== undefined && Number.isFinite(s.total.medianMs));
  return timed.sort((x, y) => x.total.medianMs - y.total.medianMs);
}

/** "auto → compensated" where a dispatch chose one strategy for every electrode, else the name */
export function strategyLabel(s: StrategyResult): string {
  const resolved = [...new Set(s.resolved)];
  return resolved.length > 0 && !(resolved.length === 1 && resolved[0] === s.strategy) ? `${s.strategy} → ${resolved.join(', ')}` : String(s.strategy);
}

function repeatsWords(s: Timed, report: Report): string {
  if (s.total.n > 0) return `warm median of ${s.total.n} repeats`;
  // a decode is one call; a run stopped before its repeats kept its first, cold, call alone
  if (report.status === 'completed') return 'one call';
  return `its first (cold) call; the run ${report.status === 'cancelled' ? 'was cancelled' : 'failed'} before more`;
}

/** `b` against `a` as the report measured it (b's time ÷ a's, with its interval), where it has that pair */
function pairComparison(report: Report, a: Timed, b: Timed): StrategyComparison | undefined {
  const flip = (c: StrategyComparison): StrategyComparison => ({ ...c, ratio: 1 / c.ratio, ratioCi95: [1 / c.ratioCi95[1], 1 / c.ratioCi95[0]] });
  if (a.strategy === 'reference' && b.vsReference) return b.vsReference;
  if (b.strategy === 'reference' && a.vsReference) return flip(a.vsReference);
  const up = report.recommendation?.runnerUp;
  if (up && report.recommendation?.strategy === a.strategy && up.strategy === b.strategy) return up;
  return undefined;
}

function nextWords(report: Report, fastest: Timed, next: Timed): string {
  const c = pairComparison(report, fastest, next);
  const ratio = next.total.medianMs / fastest.total.medianMs;
  const base = ` The next, ${strategyLabel(next)} (${formatMs(next.total.medianMs)}), takes ${formatRatio(ratio)} as long`;
  if (!c) return `${base} (medians; no interval for this pair).`;
  const interval = `95 % CI ${c.ratioCi95[0].toFixed(2)}–${c.ratioCi95[1].toFixed(2)}`;
  return c.verdict === 'no significant difference' ? `${base}: no significant difference (${interval} holds 1).` : `${base} (${interval}).`;
}

/**
 * The fastest strategy and by how much; for one strategy, what it took, and where a posterior or a
 * local likelihood followed it (a decode), the whole decode's time: the figure a lab plans by.
 */
function speedOf(report: Report, timed: readonly Timed[], stages: StageBar | null): Headed | null {
  if (timed.length === 0) return null;
  const sorted = timed;
  const fastest = sorted[0]!;
  const headline = `${strategyLabel(fastest)} · ${formatMs(fastest.total.medianMs)}`;
  const what = `to fit and decode (${repeatsWords(fastest, report)})`;
  const after = report.posterior !== undefined || report.local !== undefined;
  if (sorted.length === 1 && after && stages) {
    return {
      headline: `${formatMs(stages.totalMs)} · the whole decode`,
      detail: `${strategyLabel(fastest)} took ${formatMs(fastest.total.medianMs)} to fit and compute the likelihood (${repeatsWords(fastest, report)}); ` +
        'the local likelihood and the posterior followed (the breakdown below).',
    };
  }
  if (sorted.length === 1) return { headline, detail: `${what[0]!.toUpperCase()}${what.slice(1)}.` };
  const slowest = sorted[sorted.length - 1]!;
  const slow = sorted.length > 2 ? ` The slowest, ${strategyLabel(slowest)}, takes ${formatRatio(slowest.total.medianMs / fastest.total.medianMs)} as long.` : '';
  return { headline, detail: `The fastest of ${sorted.length}, ${what}.${nextWords(report, fastest, sorted[1]!)}${slow}` };
}

function accuracyWords(a: DecodingAccuracy, report: Report, judged: string): Headed & { nearChance: boolean } {
  const units = a.units ? ` ${a.units}` : ' position units';
  const chance = report.dataset.chanceAccuracy;
  const { verdict, nearChance } = accuracyVerdict(a, chance);
  const chanceWords = chance ? ` Chance: ${formatNumber(chance.medianAbsError, 3)}, ${formatShare(chance.shareWithin10)}; ${verdict}.` : '';
  return {
    headline: `${formatNumber(a.medianAbsError, 3)}${units} · ${formatShare(a.shareWithin10)} within ${CHANCE_RADIUS}`,
    detail: `Median error of the ${judged} against the true position over ${a.rows} rows, and the share within ${CHANCE_RADIUS}.${chanceWords}`,
    nearChance,
  };
}

/** The posterior's accuracy where the run decoded one (what the Decode view shows), else the fastest strategy's likelihood. */
function accuracyOf(report: Report, timed: readonly Timed[]): AccuracyOverview | null {
  const posterior = report.posterior;
  const p = posterior?.accuracy?.posterior;
  if (posterior && p) {
    const words = accuracyWords(p, report, "posterior's most likely position (MAP)");
    const l = posterior.accuracy?.likelihood;
    const alone = l ? ` The likelihood alone: ${formatNumber(l.medianAbsError, 3)}, ${formatShare(l.shareWithin10)} within ${CHANCE_RADIUS}.` : '';
    return { subject: `${posterior.model} posterior`, ...words, detail: `${words.detail}${alone}` };
  }
  const judged = timed.find((s) => s.accuracy !== undefined);
  if (!judged?.accuracy) return null;
  return { subject: `${strategyLabel(judged)} likelihood`, ...accuracyWords(judged.accuracy, report, "likelihood's most likely bin") };
}

/** What may disturb or qualify the numbers: an unfinished run, a busy machine, a software adapter, the findings that warn. */
function caveatsOf(report: Report): string[] {
  const caveats: string[] = [];
  if (report.status !== 'completed') {
    caveats.push(`The run ${report.status === 'cancelled' ? 'was cancelled' : 'failed'}: this report holds what it measured before it ended.`);
  }
  if (report.backend.isFallback) caveats.push(`${report.backend.device} is a software fallback: its times do not stand for a GPU.`);
  // the machine-busy finding words the load; the other warnings follow it
  for (const f of report.findings.filter((x) => x.severity !== 'info')) caveats.push(f.message);
  if (report.environment.load?.busy && !report.findings.some((f) => f.id.startsWith('machine-busy'))) {
    caveats.push('The machine was busy while measuring: timings are likely disturbed.');
  }
  return caveats;
}

export function resultsOverview(report: Report): ResultsOverview {
  const timed = timedOf(report);
  const stages = timed[0] ? phasesOf(report, timed[0], strategyLabel(timed[0])) : null;
  return {
    speed: speedOf(report, timed, stages),
    accuracy: accuracyOf(report, timed),
    stages,
    compute: timed[0] ? computeStagesOf(timed[0], strategyLabel(timed[0])) : null,
    memory: memoryOverview(report),
    projection: report.projection ? projectionSentence(report.projection) : null,
    caveats: caveatsOf(report),
    loadRecorded: report.environment.load !== undefined,
  };
}
