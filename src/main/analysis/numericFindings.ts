/**
 * Numerical findings: non-finite values, the LOG_EPS floor cliff (spec §9.1), electrodes with too
 * few encoding spikes, and strategies that disagree with the reference or the expected output.
 */
import type { Agreement, ElectrodeHealth, Finding, NumericalHealth, StrategyResult } from '../../shared/report';
import { ALLCLOSE_ATOL, ALLCLOSE_RTOL } from './agreement';
import { formatAbsDiff, formatShare } from '../../shared/format';
import { minEncodingSpikesFor } from './health';
import { type AnalysisInput, strategyLabel } from './results';
import { LOG_EPS } from '../engine/model';
import { ARGMAX_AGREEMENT_MIN, FLOOR_SHARE_WARN } from './thresholds';

const MAX_LISTED = 8;

function listed<T>(items: readonly T[], show: (x: T) => string): string {
  const head = items.slice(0, MAX_LISTED).map(show).join(', ');
  return items.length > MAX_LISTED ? `${head} and ${items.length - MAX_LISTED} more` : head;
}

/** Health of the fit: the reference's if it ran, else the first strategy that reported one. */
function primaryHealth(strategies: readonly StrategyResult[]): NumericalHealth | undefined {
  const withHealth = strategies.filter((r) => r.health);
  return (withHealth.find((r) => r.strategy === 'reference') ?? withHealth[0])?.health;
}

/** One entry per electrode across strategies, keeping the worst non-finite count seen. */
function electrodesOf(strategies: readonly StrategyResult[]): ElectrodeHealth[] {
  const byName = new Map<string, ElectrodeHealth>();
  for (const r of strategies) {
    for (const e of r.health?.electrodes ?? []) {
      const seen = byName.get(e.electrode);
      if (!seen || e.nonFinite > seen.nonFinite) byName.set(e.electrode, e);
    }
  }
  return [...byName.values()];
}

function nonFiniteFindings(strategies: readonly StrategyResult[]): Finding[] {
  const out: Finding[] = [];
  const healths = strategies.flatMap((r) => (r.health ? [r.health] : []));
  const electrodes = electrodesOf(strategies);
  const fewSpikes = electrodes.filter((e) => e.tooFewEncodingSpikes);
  const suspects = fewSpikes.length > 0
    ? `; electrodes with very few encoding spikes: ${listed(fewSpikes, (e) => `${e.electrode} (${e.nEncodingSpikes})`)}`
    : '';
  const occupancy = Math.max(0, ...healths.map((h) => h.nonFiniteOccupancy));
  if (occupancy > 0) {
    out.push({
      id: 'non-finite-occupancy', severity: 'error', value: occupancy,
      message:
        `The occupancy has ${occupancy} non-finite bin${occupancy === 1 ? '' : 's'}: a NaN position sample reached ` +
        `the fit and makes every bin NaN (spec §5); drop NaN rows from position before fitting.`,
    });
  }
  const ground = Math.max(0, ...healths.map((h) => h.nonFiniteGroundProcess));
  if (ground > 0) {
    out.push({
      id: 'non-finite-ground-process', severity: 'error', value: ground,
      message:
        `The summed ground-process intensity has ${ground} non-finite bin${ground === 1 ? '' : 's'}${suspects}; ` +
        `check those electrodes and the occupancy, and exclude electrodes without encoding spikes.`,
    });
  }
  const bad = electrodes.filter((e) => e.nonFinite > 0);
  if (bad.length > 0) {
    out.push({
      id: 'non-finite-electrodes', severity: 'error', value: bad.length,
      electrode: bad.length === 1 ? bad[0]!.electrode : undefined,
      message:
        `${bad.length} electrode${bad.length === 1 ? '' : 's'} produced non-finite values: ` +
        `${listed(bad, (e) => `${e.electrode} (${e.nonFinite} values, ${e.nEncodingSpikes} encoding spikes)`)}; ` +
        `inspect their spike times and features for NaN, or exclude them.`,
    });
  }
  for (const r of strategies) {
    const n = r.health?.nonFiniteLikelihood ?? 0;
    if (n === 0) continue;
    const label = strategyLabel(r);
    out.push({
      id: `non-finite-likelihood:${label}`, severity: 'error', strategy: label, value: n,
      message:
        `The likelihood of ${label} has ${n} non-finite value${n === 1 ? '' : 's'}${suspects}; ` +
        `a decoder fed with it returns NaN posteriors: fix the inputs named above or drop those electrodes.`,
    });
  }
  return out;
}

/** ln(σ·√(2π)): how far one more feature lowers every spike term (spec §9.1). */
function natsPerFeature(waveformStd: number | number[]): number {
  const sigmas = Array.isArray(waveformStd) ? waveformStd : [waveformStd];
  const meanLog = sigmas.reduce((s, x) => s + Math.log(x), 0) / Math.max(1, sigmas.length);
  return meanLog + 0.5 * Math.log(2 * Math.PI);
}

function floorFinding(input: AnalysisInput): Finding[] {
  const health = primaryHealth(input.strategies);
  if (!health || !(health.floorShare > FLOOR_SHARE_WARN)) return [];
  const d = input.dataset;
  const dims = d.featureDims.length > 0 ? Math.max(...d.featureDims) : 0;
  const sigma = Array.isArray(d.waveformStd) ? d.waveformStd.join('/') : String(d.waveformStd);
  const nats = natsPerFeature(d.waveformStd);
  return [{
    id: 'floor-dominated', severity: 'warning', value: health.floorShare,
    message:
      `${formatShare(health.floorShare)} of spike terms sit on the LOG_EPS floor (ln 1e-15 ≈ ${LOG_EPS.toFixed(1)}), ` +
      `${health.floorShare >= 0.99 ? 'so the likelihood is flat and the decode carries no information' : 'and carry no information about position'}: ` +
      `with D = ${dims} features and waveform ` +
      `σ = ${sigma} each feature lowers log λ by ln(σ·√(2π)) ≈ ${nats.toFixed(1)} nats (spec §9.1); ` +
      `use a smaller waveform σ or fewer features.`,
  }];
}

interface SparseElectrode {
  name: string;
  n: number;
  min?: number;
}

/** From the measured health where there is one, else from the dataset with the default threshold. */
function sparseElectrodes(input: AnalysisInput): SparseElectrode[] {
  const q = input.dataset.positionDims;
  const thresholdOf = (name: string): number | undefined => {
    const e = input.dataset.electrodes.find((x) => x.name === name);
    return e === undefined ? undefined : minEncodingSpikesFor(e.nFeatures, q);
  };
  const measured = electrodesOf(input.strategies);
  if (measured.length > 0) {
    return measured
      .filter((e) => e.tooFewEncodingSpikes)
      .map((e) => ({ name: e.electrode, n: e.nEncodingSpikes, min: thresholdOf(e.electrode) }));
  }
  return input.dataset.electrodes
    .map((e) => ({ name: e.name, n: e.nEncodingSpikes, min: thresholdOf(e.name) }))
    .filter((e) => e.min !== undefined && e.n < e.min);
}

function tooFewFinding(input: AnalysisInput): Finding[] {
  const sparse = sparseElectrodes(input);
  if (sparse.length === 0) return [];
  const named = listed(sparse, (e) => `${e.name} (${e.n}${e.min === undefined ? '' : ` < ${e.min}`})`);
  return [{
    id: 'too-few-encoding-spikes', severity: 'warning', value: sparse.length,
    electrode: sparse.length === 1 ? sparse[0]!.name : undefined,
    message:
      `${sparse.length} electrode${sparse.length === 1 ? ' has' : 's have'} too few encoding spikes to estimate ` +
      `a mark density (fewer than 2·(D + Q)): ${named}; their terms are near-constant or on the floor: ` +
      `exclude them or fit on a longer encoding period.`,
  }];
}

function disagreementFinding(r: StrategyResult, g: Agreement, kind: string, versus: string): Finding {
  const label = strategyLabel(r);
  const decoded = g.argmaxAgreement >= ARGMAX_AGREEMENT_MIN
    ? `the decoded position still agrees in ${formatShare(g.argmaxAgreement)} of time rows`
    : `the decoded position agrees in only ${formatShare(g.argmaxAgreement)} of time rows`;
  const compensatedHint =
    '; compensated rescales by one global maximum, so in float32 entries far below it underflow when marks ' +
    'span many σ (spec §9.2): use reference or logsumexp for wide-range marks';
  // an external engine in float32 (NLD's default) rounds spike times, which can move spikes across bin edges
  const precisionHint = r.external?.dtype === 'float32'
    ? `; it computes in float32: run it in float64 as well (${r.strategy.startsWith('nld:') ? `${r.strategy}:x64` : 'its float64 mode'}) to tell precision from a difference of method`
    : undefined;
  const hint = r.strategy === 'compensated' || r.resolved.includes('compensated')
    ? compensatedHint
    : precisionHint ?? '; compare its likelihood with the reference row by row to find where it departs';
  return {
    id: `${kind}:${label}`,
    severity: g.argmaxAgreement >= ARGMAX_AGREEMENT_MIN ? 'warning' : 'error',
    strategy: label,
    value: g.maxAbsDiff,
    message:
      `${label} disagrees with ${versus} beyond rtol ${ALLCLOSE_RTOL.toExponential(0)} / ` +
      `atol ${ALLCLOSE_ATOL.toExponential(0)}: max |diff| ` +
      `${formatAbsDiff(g.maxAbsDiff)}, mean ${formatAbsDiff(g.meanAbsDiff)}; ${decoded}${hint}.`,
  };
}

function agreementFindings(strategies: readonly StrategyResult[]): Finding[] {
  const out: Finding[] = [];
  for (const r of strategies) {
    if (r.status !== 'ok') continue;
    const ref = r.agreementWithReference;
    if (ref && !ref.allclose) out.push(disagreementFinding(r, ref, 'strategies-disagree', ref.against));
    const exp = r.agreementWithExpected;
    if (exp && !exp.allclose) out.push(disagreementFinding(r, exp, 'expected-mismatch', `the file's expected output (${exp.against})`));
  }
  return out;
}

export function numericFindings(input: AnalysisInput): Finding[] {
  return [
    ...nonFiniteFindings(input.strategies),
    ...floorFinding(input),
    ...tooFewFinding(input),
    ...agreementFindings(input.strategies),
  ];
}
