/**
 * The timing and agreement sections of report.md: warm medians per strategy with their bootstrap
 * intervals, the speedup against the reference and the verdict of its interval, cold first calls
 * against warm repeats, and how closely strategies agree.
 */
import { autoProbeSentence } from '../../shared/autoProbeText';
import type { Report, StrategyResult, TimingStats } from '../../shared/report';
import { formatAbsDiff, formatMs, formatMsPlusMinus, formatRatio, formatShare } from '../../shared/format';
import { failureText } from '../../shared/externalEngineFacts';
import { RUN_FILES } from '../engineProtocol';
import { mdTable, ratioWithCi, yesNo } from './format';

const PHASES = ['encode', 'decode', 'total'] as const;
type Phase = (typeof PHASES)[number];

/** The strategy speedups are measured against: `reference` when it ran, else the first that has times. */
export function baselineOf(report: Report): StrategyResult | undefined {
  const timed = report.strategies.filter((s) => s.status === 'ok' && s.total);
  return timed.find((s) => s.strategy === 'reference') ?? timed[0];
}

/** baseline median total / this median total: above 1 is faster than the baseline */
export function speedupOf(s: StrategyResult, baseline: StrategyResult | undefined): number | undefined {
  const mine = s.total?.medianMs;
  const base = baseline?.total?.medianMs;
  if (mine === undefined || base === undefined || mine === null || base === null || !(mine > 0)) return undefined;
  return base / mine;
}

/**
 * The speedup with a word only where the row has no other verdict or its interval backs the word:
 * when the comparison against the baseline holds 1, the ratio stands alone and the next column
 * says "no significant difference", so one row never reads both faster and not different.
 */
function speedupText(s: StrategyResult, baseline: StrategyResult | undefined): string {
  if (s === baseline) return '1.00× (baseline)';
  const x = speedupOf(s, baseline);
  if (x === undefined) return 'n/a';
  const judged = s.vsReference && baseline && s.vsReference.against === baseline.strategy ? s.vsReference.verdict : undefined;
  if (judged === 'no significant difference') return formatRatio(x);
  if (x >= 1) return `${formatRatio(x)} (faster)`;
  return `${formatRatio(x)} (${formatRatio(1 / x)} slower)`;
}

/** "auto → series, compensated": what a strategy resolved to, left out when it ran as itself */
export function strategyLabel(s: StrategyResult): string {
  const resolved = [...new Set(s.resolved)];
  const asItself = resolved.length === 0 || (resolved.length === 1 && resolved[0] === s.strategy);
  return asItself ? s.strategy : `${s.strategy} → ${resolved.join(', ')}`;
}

/** an external engine that cannot run on this machine says so apart from one that failed */
function statusText(s: StrategyResult): string {
  if (s.status === 'ok') return 'ok';
  return s.external?.unavailable !== undefined ? failureText(s) : `failed: ${s.error?.message ?? 'unknown error'}`;
}

function warm(t: TimingStats | undefined): string {
  return t ? formatMsPlusMinus(t.medianMs, t.stdMs) : '—';
}

/** "76.1 ms – 80.2 ms"; a dash without an interval (fewer than two repeats) */
export function ciText(t: TimingStats | undefined): string {
  return t?.ci95 ? `${formatMs(t.ci95[0])} – ${formatMs(t.ci95[1])}` : '—';
}

/** "12 (precision)": how many repeats and, when the run repeated until stable, why they stopped */
export function repeatsText(t: TimingStats | undefined): string {
  if (!t) return '—';
  return t.stoppedBy && t.stoppedBy !== 'repeats' ? `${t.n} (${t.stoppedBy})` : String(t.n);
}

/** "1.18× (95 % CI 1.12–1.24): slower" against the reference */
function vsReferenceText(s: StrategyResult): string {
  const c = s.vsReference;
  if (!c) return s.strategy === 'reference' ? '—' : 'n/a';
  return `${ratioWithCi(c.ratio, c.ratioCi95)}: ${c.verdict}`;
}

function repeatsWords(report: Report): string {
  const rule = report.config.untilStable;
  if (!rule) return `median ± standard deviation over n repeats`;
  return `median ± standard deviation over n repeats, repeated until the median's 95 % interval was within ` +
    `±${formatShare(rule.relativeCi, 0)} (at least ${report.config.repeats}, at most ${rule.maxRepeats} or ${rule.maxTimeS} s per strategy)`;
}

export function timingsSection(report: Report): string {
  const baseline = baselineOf(report);
  const out: string[] = ['## Timings', ''];
  if (report.strategies.length === 0) return [...out, 'No strategy ran.'].join('\n');
  out.push(
    `Warm repeats after ${report.config.warmup} warm-up call(s): ${repeatsWords(report)}. The 95 % interval of the ` +
      `median is a seeded bootstrap. Speedup is the median total of ${baseline ? `\`${baseline.strategy}\`` : 'the baseline'} ` +
      `divided by each strategy's; against reference, each total ÷ the reference's with the interval of that ratio, ` +
      `"no significant difference" when it holds 1.`,
    '',
  );
  out.push(mdTable(
    ['Strategy', 'Status', 'Encode', 'Decode', 'Total', 'Total median 95 % CI', 'Repeats', `Speedup vs ${baseline?.strategy ?? 'baseline'}`, 'Time vs reference'],
    report.strategies.map((s) => [
      strategyLabel(s),
      statusText(s),
      warm(s.encode), warm(s.decode), warm(s.total), ciText(s.total), repeatsText(s.total), speedupText(s, baseline), vsReferenceText(s),
    ]),
  ));
  out.push(...dispatchReasons(report));
  out.push('', '### Cold first call vs warm repeats', '');
  const rows: string[][] = [];
  for (const s of report.strategies) {
    for (const phase of PHASES) {
      const t = s[phase as Phase];
      if (!t) continue;
      const coldOverWarm = t.medianMs && t.medianMs > 0 && t.firstMs !== null ? t.firstMs / t.medianMs : undefined;
      rows.push([
        s.strategy, phase, formatMs(t.firstMs), formatMs(t.medianMs), formatMsPlusMinus(t.meanMs, t.stdMs), formatMs(t.minMs),
        formatMs(t.maxMs), String(t.n), coldOverWarm === undefined ? 'n/a' : formatRatio(coldOverWarm), ciText(t), outliersText(t),
      ]);
    }
  }
  out.push(rows.length > 0
    ? mdTable(['Strategy', 'Phase', 'Cold (first call)', 'Warm median', 'Mean ± std', 'Min', 'Max', 'n', 'Cold / warm', 'Median 95 % CI', 'Outliers'], rows)
    : 'No timings were recorded.');
  if (report.local) {
    const t = report.local.timing;
    out.push('', '### Local likelihood', '', mdTable(
      ['Cold (first call)', 'Warm median ± std', 'Median 95 % CI', 'Min', 'Max', 'n'],
      [[formatMs(t.firstMs), formatMsPlusMinus(t.medianMs, t.stdMs), ciText(t), formatMs(t.minMs), formatMs(t.maxMs), String(t.n)]],
    ));
  }
  return out.join('\n');
}

/** electrodes listed per dispatch in the Markdown; report.json holds every one */
const REASONS_SHOWN = 16;

/** Why each dispatch (auto, nld-dispatch) ran what it ran, electrode by electrode. */
function dispatchReasons(report: Report): string[] {
  const out: string[] = [];
  for (const s of report.strategies) {
    const reasons = s.resolvedReasons ?? [];
    const lines = reasons.flatMap((why, e) => (why ? [`- ${report.dataset.electrodes[e]?.name ?? `electrode ${e}`}: ${s.resolved[e] ?? '?'} (${why})`] : []));
    if (lines.length === 0 && !s.autoProbe) continue;
    out.push('', `### Why \`${s.strategy}\` chose what it ran`, '');
    if (s.autoProbe) out.push(`${autoProbeSentence(s.autoProbe)}.`, '');
    out.push(...lines.slice(0, REASONS_SHOWN));
    if (lines.length > REASONS_SHOWN) out.push(`- … and ${lines.length - REASONS_SHOWN} more electrodes (every one in ${RUN_FILES.report}, \`resolvedReasons\`)`);
  }
  return out;
}

/** the outlying repeats by their values: "2 (240 ms, 251 ms)" */
function outliersText(t: TimingStats): string {
  if (!t.outliers) return '—';
  if (t.outliers.length === 0) return 'none';
  return `${t.outliers.length} (${t.outliers.map((i) => formatMs(t.samplesMs[i])).join(', ')})`;
}

export function agreementSection(report: Report): string {
  const out: string[] = ['## Numerical agreement', ''];
  const rows: string[][] = [];
  for (const s of report.strategies) {
    for (const a of [s.agreementWithReference, s.agreementWithExpected]) {
      if (!a) continue;
      rows.push([s.strategy, a.against, formatAbsDiff(a.maxAbsDiff), formatAbsDiff(a.meanAbsDiff), yesNo(a.allclose), formatShare(a.argmaxAgreement)]);
    }
  }
  if (report.local?.agreementWithExpected) {
    const a = report.local.agreementWithExpected;
    rows.push(['local', a.against, formatAbsDiff(a.maxAbsDiff), formatAbsDiff(a.meanAbsDiff), yesNo(a.allclose), formatShare(a.argmaxAgreement)]);
  }
  out.push(rows.length > 0
    ? mdTable(['Strategy', 'Against', 'Max abs diff', 'Mean abs diff', 'allclose (rtol 1e-4, atol 1e-4)', 'Argmax agreement'], rows)
    : 'No comparison was possible (a single strategy and no expected values in the input).');

  const fits = report.strategies.filter((s) => s.fitAgreement);
  if (fits.length > 0) {
    out.push('', 'Fit outputs against the expected values (max abs diff):', '', mdTable(
      ['Strategy', 'Occupancy', 'Mean rates', 'Summed ground-process intensity'],
      fits.map((s) => [s.strategy, formatAbsDiff(s.fitAgreement!.occupancy), formatAbsDiff(s.fitAgreement!.meanRates), formatAbsDiff(s.fitAgreement!.summedGroundProcessIntensity)]),
    ));
  }
  const m = report.agreementMatrix;
  if (m && m.strategies.length > 1) {
    out.push('', '### Agreement matrix', '', 'Max abs diff of the log-likelihood (✅ allclose), and argmax agreement of the decoded position:', '');
    out.push(mdTable(['', ...m.strategies], m.strategies.map((row, i) => [
      row, ...m.strategies.map((_, j) => (i === j ? '—' : `${formatAbsDiff(m.maxAbsDiff[i]?.[j])} ${yesNo(m.allclose[i]?.[j] === true)}`)),
    ])));
    out.push('', mdTable(['argmax', ...m.strategies], m.strategies.map((row, i) => [
      row, ...m.strategies.map((_, j) => (i === j ? '—' : formatShare(m.argmaxAgreement[i]?.[j]))),
    ])));
  }
  return out.join('\n');
}
