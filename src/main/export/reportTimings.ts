/**
 * The timing and agreement sections of report.md: warm medians per strategy with the speedup
 * against the reference, cold first calls against warm repeats, and how closely strategies agree.
 */
import type { Report, StrategyResult, TimingStats } from '../../shared/report';
import { formatAbsDiff, formatMs, formatMsPlusMinus, formatRatio, formatShare } from '../../shared/format';
import { mdTable, yesNo } from './format';

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

function speedupText(s: StrategyResult, baseline: StrategyResult | undefined): string {
  if (s === baseline) return '1.00× (baseline)';
  const x = speedupOf(s, baseline);
  if (x === undefined) return 'n/a';
  if (x >= 1) return `${formatRatio(x)} (faster)`;
  return `${formatRatio(x)} (${formatRatio(1 / x)} slower)`;
}

function warm(t: TimingStats | undefined): string {
  return t ? formatMsPlusMinus(t.medianMs, t.stdMs) : '—';
}

export function timingsSection(report: Report): string {
  const baseline = baselineOf(report);
  const out: string[] = ['## Timings', ''];
  if (report.strategies.length === 0) return [...out, 'No strategy ran.'].join('\n');
  out.push(
    `Warm repeats after ${report.config.warmup} warm-up call(s): median ± standard deviation over n repeats. ` +
      `Speedup is the median total of ${baseline ? `\`${baseline.strategy}\`` : 'the baseline'} divided by each strategy's.`,
    '',
  );
  out.push(mdTable(
    ['Strategy', 'Status', 'Encode', 'Decode', 'Total', `Speedup vs ${baseline?.strategy ?? 'baseline'}`],
    report.strategies.map((s) => [
      s.strategy + (s.resolved.length > 0 && (s.resolved.length > 1 || s.resolved[0] !== s.strategy) ? ` → ${[...new Set(s.resolved)].join(', ')}` : ''),
      s.status === 'ok' ? 'ok' : `failed: ${s.error?.message ?? 'unknown error'}`,
      warm(s.encode), warm(s.decode), warm(s.total), speedupText(s, baseline),
    ]),
  ));
  out.push('', '### Cold first call vs warm repeats', '');
  const rows: string[][] = [];
  for (const s of report.strategies) {
    for (const phase of PHASES) {
      const t = s[phase as Phase];
      if (!t) continue;
      const coldOverWarm = t.medianMs && t.medianMs > 0 && t.firstMs !== null ? t.firstMs / t.medianMs : undefined;
      rows.push([
        s.strategy, phase, formatMs(t.firstMs), formatMs(t.medianMs), formatMsPlusMinus(t.meanMs, t.stdMs), formatMs(t.minMs),
        formatMs(t.maxMs), String(t.n), coldOverWarm === undefined ? 'n/a' : formatRatio(coldOverWarm),
      ]);
    }
  }
  out.push(rows.length > 0
    ? mdTable(['Strategy', 'Phase', 'Cold (first call)', 'Warm median', 'Mean ± std', 'Min', 'Max', 'n', 'Cold / warm'], rows)
    : 'No timings were recorded.');
  if (report.local) {
    const t = report.local.timing;
    out.push('', '### Local likelihood', '', mdTable(
      ['Cold (first call)', 'Warm median ± std', 'Min', 'Max', 'n'],
      [[formatMs(t.firstMs), formatMsPlusMinus(t.medianMs, t.stdMs), formatMs(t.minMs), formatMs(t.maxMs), String(t.n)]],
    ));
  }
  return out.join('\n');
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
