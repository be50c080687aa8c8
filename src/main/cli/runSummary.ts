/**
 * The few lines `run` prints on stdout when it finishes: per strategy its warm medians with their
 * intervals, how many repeats and why they stopped, its time against the reference with the
 * verdict, and its agreement with the reference; then the headline findings and the
 * recommendation with its runner-up; with a posterior, each posterior method's filter and smoother times.
 */
import { structuredToDense } from '../../shared/posteriorReport';
import type { DecodingAccuracy, PosteriorReport, Recommendation, Report, StrategyResult } from '../../shared/report';
import { wholeDecodeText } from '../../shared/externalEngineFacts';
import { formatMs } from '../../shared/format';
import { comparisonText, formatMedianCi } from '../analysis';
import { table } from './table';

function repeatsCell(s: StrategyResult): string {
  const t = s.total;
  if (!t) return '-';
  return t.stoppedBy && t.stoppedBy !== 'repeats' ? `${t.n} (${t.stoppedBy})` : String(t.n);
}

function vsReferenceCell(s: StrategyResult): string {
  if (s.vsReference) return comparisonText(s.vsReference);
  return s.strategy === 'reference' ? 'is the reference' : '-';
}

function agreementCell(s: StrategyResult): string {
  const agree = s.agreementWithReference;
  // an engine that decoded the whole model is compared on its posterior, not its likelihood
  const what = s.external?.posterior ? ' (posterior)' : '';
  if (agree) return `max |diff| ${agree.maxAbsDiff.toExponential(1)}${what}${agree.allclose ? '' : ' (NOT allclose)'}`;
  return s.error ? s.error.message.slice(0, 60) : '-';
}

/**
 * "5.0 cm, 75 % within 10": how well it decodes, where the data carry the true position; "position
 * units" where the data name none, so a bare number is never read as centimetres
 */
function accuracyText(a: DecodingAccuracy): string {
  return `${a.medianAbsError.toFixed(1)} ${a.units ?? 'position units'}, ${Math.round(a.shareWithin10 * 100)} % within 10`;
}

function accuracyCell(s: StrategyResult): string {
  return s.accuracy ? accuracyText(s.accuracy) : '-';
}

/**
 * With a posterior, the decode a lab reads is the posterior's MAP, not the likelihood's argmax the
 * table's column scores (on NLD's own data 2.1 cm against 59 position units): said first, and the
 * column is named for what it scores.
 */
function posteriorAccuracyLine(report: Report): string | null {
  const a = report.posterior?.accuracy?.posterior;
  if (!a) return null;
  return `decoding error of the ${report.posterior!.model} (posterior MAP against the true position): ${accuracyText(a)}; the table's column is the likelihood's argmax alone`;
}

/** What guessing a bin at random scores on these data, to read the decoding error against. */
function chanceLine(report: Report): string | null {
  const c = report.dataset.chanceAccuracy;
  if (!c || !report.strategies.some((s) => s.accuracy)) return null;
  return `decoding error at chance (a bin guessed uniformly): ${c.medianAbsError.toFixed(1)}, ${Math.round(c.shareWithin10 * 100)} % within 10`;
}

/** the local likelihood's timing, beside the non-local ones, with its cost against a non-local decode */
function localRow(report: Report): string[] | null {
  const local = report.local;
  if (!local) return null;
  const ratio = local.ratioToNonlocal;
  const versus = ratio ? `decode ${ratio.ratio.toFixed(2)}× ${ratio.against}'s non-local decode` : '-';
  return ['local', 'ok', '-', formatMedianCi(local.timing), formatMedianCi(local.timing), String(local.timing.n), formatMs(local.timing.firstMs), versus, '-', '-'];
}

/** "posterior (detector): dense filter 1.2 s · smoother 0.9 s; structured … (0.11× dense, max |diff| 3e-7)" */
function posteriorLine(p: PosteriorReport): string | null {
  const timed = p.methods;
  if (!timed || timed.length === 0) return null;
  const ratio = structuredToDense(p);
  const parts = timed.map((t, i) => {
    const diff = i > 0 && t.maxAbsDiffToFirst !== null ? `, max |diff| ${t.maxAbsDiffToFirst.toExponential(1)} vs ${timed[0]!.method}` : '';
    const versus = ratio && t.method === ratio.method ? ` (${ratio.total.toFixed(2)}× ${ratio.against}${diff})` : diff ? ` (${diff.slice(2)})` : '';
    return `${t.method} filter ${formatMs(t.filterMs)} · smoother ${formatMs(t.smoothMs)}${versus}`;
  });
  return `posterior (${p.model}): ${parts.join('; ')}`;
}

function recommendationLine(r: Recommendation): string {
  const runnerUp = r.runnerUp ? `; runner-up ${r.runnerUp.strategy}: ${comparisonText(r.runnerUp)}` : '';
  return `recommendation: ${r.strategy}, block size ${r.blockSize}${runnerUp}`;
}

export function runSummary(report: Report): string {
  const scored = report.posterior?.accuracy?.posterior ? 'likelihood argmax error' : 'decoding error';
  const rows = [['strategy', 'status', 'encode', 'decode', 'total (95 % CI)', 'repeats', 'first call', 'vs reference', 'agreement', scored]];
  for (const s of report.strategies) {
    rows.push([
      s.strategy,
      s.status,
      s.encode ? formatMedianCi(s.encode) : '-',
      s.decode ? formatMedianCi(s.decode) : '-',
      s.total ? formatMedianCi(s.total) : '-',
      repeatsCell(s),
      s.total ? formatMs(s.total.firstMs) : '-',
      vsReferenceCell(s),
      agreementCell(s),
      accuracyCell(s),
    ]);
  }
  const local = localRow(report);
  if (local) rows.push(local);
  const lines = [
    `${report.dataset.name}: ${report.dataset.nElectrodes} electrodes, ${report.dataset.nTime} time rows × ${report.dataset.nBins} bins on ` +
      `${report.backend.name} (${report.backend.device})${(report.workers ?? 1) > 1 ? ` × ${report.workers} workers` : ''}`,
  ];
  const decoded = posteriorAccuracyLine(report);
  if (decoded) lines.push(decoded);
  lines.push(table(rows));
  const chance = chanceLine(report);
  if (chance) lines.push(chance);
  const posterior = report.posterior ? posteriorLine(report.posterior) : null;
  if (posterior) lines.push(posterior);
  const whole = wholeDecodeText(report);
  if (whole) lines.push(whole);
  const notable = report.findings.filter((f) => f.severity !== 'info');
  for (const f of notable.slice(0, 5)) lines.push(`${f.severity}: ${f.message}`);
  if (report.recommendation) lines.push(recommendationLine(report.recommendation));
  return lines.join('\n') + '\n';
}
