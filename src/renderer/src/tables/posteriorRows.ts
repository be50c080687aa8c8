/**
 * The Results view's Posterior card: the facts report.md's Posterior section lists, as label and
 * text, and the accuracy of the posterior's MAP beside the likelihood's argmax.
 */
import type { DecodingAccuracy, PosteriorReport } from '../../../shared/report';
import { formatBytes, formatMs, formatShare, nonFiniteText } from '../../../shared/format';

export interface Fact {
  label: string;
  value: string;
}

const count = (n: number): string => n.toLocaleString('en-US');

export function posteriorFacts(p: PosteriorReport): Fact[] {
  return [
    { label: 'model', value: p.model },
    { label: 'posterior method', value: p.method },
    { label: 'states', value: p.states.join(', ') },
    { label: 'rows', value: count(p.rows) },
    { label: 'state bins', value: `${count(p.nInteriorStateBins)} inside the track, of ${count(p.nStateBins)}` },
    // a NaN arrives as null through JSON
    { label: 'log marginal likelihood', value: nonFiniteText(p.marginalLogLikelihood) ?? p.marginalLogLikelihood.toFixed(3) },
    { label: 'filter', value: formatMs(p.filterMs) },
    { label: 'smoother', value: formatMs(p.smoothMs) },
    { label: 'dense transition matrix', value: formatBytes(p.denseTransitionBytes) },
  ];
}

export interface AccuracyRow {
  by: string;
  rows: string;
  medianError: string;
  within10: string;
}

function accuracyRow(by: string, a: DecodingAccuracy | undefined): AccuracyRow {
  if (!a) return { by, rows: '0', medianError: 'n/a', within10: 'n/a' };
  const error = nonFiniteText(a.medianAbsError) ?? `${a.medianAbsError.toPrecision(3)}${a.units ? ` ${a.units}` : ''}`;
  return { by, rows: count(a.rows), medianError: error, within10: formatShare(a.shareWithin10) };
}

/** MAP first, then the likelihood it should beat; empty when the data carry no true position */
export function posteriorAccuracyRows(p: PosteriorReport): AccuracyRow[] {
  const a = p.accuracy;
  if (!a || (!a.posterior && !a.likelihood)) return [];
  return [accuracyRow('posterior MAP', a.posterior), accuracyRow('likelihood argmax', a.likelihood)];
}

/** the posterior's files, relative to the run folder, in the order a lab opens them */
export function posteriorFiles(p: PosteriorReport): string[] {
  return [p.files.acausal, p.files.causal, p.files.stateProbabilities, p.files.mapPosition];
}
