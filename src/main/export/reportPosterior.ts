/**
 * The Posterior section of report.md: what the state-space posterior a decode ended with costs and
 * how well it decodes against the likelihood alone, and where its files are; for a profiling run
 * that timed both posterior methods, each one's times, their ratio and how far their posteriors differ.
 */
import { structuredToDense } from '../../shared/posteriorReport';
import { projectionSentence } from '../../shared/projection';
import type { DecodingAccuracy, PosteriorReport, Report } from '../../shared/report';
import { formatBytes, formatMs, formatShare, nonFiniteText } from '../../shared/format';
import { fmtInt, mdTable } from './format';

/** what each posterior file holds, in the order a lab opens them */
const FILE_WORDS: Record<keyof PosteriorReport['files'], string> = {
  acausal: 'acausal (smoothed) posterior, rows × state bins, NaN outside the track',
  causal: 'causal (filtered) posterior, rows × state bins, NaN outside the track',
  stateProbabilities: 'acausal probability of each state, rows × states',
  mapPosition: 'MAP position of each row',
};

/** a log likelihood to three decimals; NaN (null once read back from JSON) in words */
function logLikelihoodText(x: number | null): string {
  return nonFiniteText(x) ?? x!.toFixed(3);
}

function accuracyRow(name: string, a: DecodingAccuracy | undefined): string[] {
  if (!a) return [name, '0', 'n/a', 'n/a'];
  const units = a.units ? ` ${a.units}` : '';
  const error = nonFiniteText(a.medianAbsError) ?? `${a.medianAbsError.toPrecision(3)}${units}`;
  return [name, fmtInt(a.rows), error, formatShare(a.shareWithin10)];
}

function accuracyTable(p: PosteriorReport): string[] {
  const a = p.accuracy;
  if (!a || (!a.posterior && !a.likelihood)) return ['The data carry no true position: no accuracy to report.'];
  return [
    'Against the true position: the posterior\'s MAP bin and the likelihood\'s argmax bin (a posterior should decode better than the likelihood alone).',
    '',
    mdTable(['Decoded by', 'Rows', 'Median error', 'Within 10'], [accuracyRow('Posterior MAP', a.posterior), accuracyRow('Likelihood argmax', a.likelihood)]),
  ];
}

/** The whole recording at this decode's rates, when the decode was a window of it (with or without a posterior). */
export function projectionSection(report: Report): string | undefined {
  return report.projection ? ['## Whole recording, projected', '', projectionSentence(report.projection)].join('\n') : undefined;
}

/** a ratio of times, two decimals */
function timesText(ratio: number): string {
  return nonFiniteText(ratio) ?? `${ratio.toFixed(2)}×`;
}

/** Each method's filter and smoother on the same likelihood, when a profiling run timed them. */
function methodLines(p: PosteriorReport): string[] {
  const timed = p.methods;
  if (!timed || timed.length === 0) return [];
  const first = timed[0]!;
  const rows = timed.map((t) => [
    t.method, formatMs(t.filterMs), formatMs(t.smoothMs), formatMs(t.filterMs + t.smoothMs),
    t === first ? '-' : nonFiniteText(t.maxAbsDiffToFirst) ?? t.maxAbsDiffToFirst.toExponential(2),
  ]);
  const ratio = structuredToDense(p);
  const ratioLine = ratio
    ? ['', `Structured ÷ dense: filter ${timesText(ratio.filter)}, smoother ${timesText(ratio.smooth)}, both ${timesText(ratio.total)}.`]
    : [];
  return [
    '', '### Posterior methods', '',
    `The filter and smoother on the same likelihood, once per method; the table above is ${p.method}'s, and its files are in posterior/.`,
    '',
    mdTable(['Method', 'Filter', 'Smoother', 'Filter + smoother', `Max abs diff of the acausal posterior vs ${first.method}`], rows),
    ...ratioLine,
  ];
}

export function posteriorSection(report: Report): string | undefined {
  const p = report.posterior;
  if (!p) return undefined;
  const rows: string[][] = [
    ['Model', p.model],
    ['Posterior method', p.method],
    ['States', p.states.join(', ')],
    ['Rows', fmtInt(p.rows)],
    ['State bins', `${fmtInt(p.nInteriorStateBins)} inside the track, of ${fmtInt(p.nStateBins)}`],
    ['Log marginal likelihood', logLikelihoodText(p.marginalLogLikelihood)],
    ['Filter', formatMs(p.filterMs)],
    ['Smoother', formatMs(p.smoothMs)],
    ['Dense transition matrix (N × N float32)', formatBytes(p.denseTransitionBytes)],
    ...(p.parameters ? [['Movement variance', `${p.parameters.movementVar}`], ['No-spike rate', `${p.parameters.noSpikeRate} per s`],
      ['Discrete transition (rows from, columns to)', p.parameters.discreteTransition.map((row) => `[${row.join(', ')}]`).join(' ')]] : []),
    ...(p.localMs !== undefined ? [['Local likelihood (the Local state)', formatMs(p.localMs)]] : []),
    ...(p.memory ? [['Posterior memory: estimated / measured', `${formatBytes(p.memory.estimatedBytes)} / ${formatBytes(p.memory.measuredBytes)}`]] : []),
  ];
  const files = (Object.keys(FILE_WORDS) as (keyof PosteriorReport['files'])[]).map((k) => `- \`${p.files[k]}\`: ${FILE_WORDS[k]}`);
  return [
    '## Posterior', '', mdTable(['', `${p.model} posterior`], rows), ...methodLines(p),
    '', '### Accuracy', '', ...accuracyTable(p),
    '', '### Files', '', 'Float32 .npy in non_local_detector\'s layout, relative to the run folder:', '', ...files,
  ].join('\n');
}
