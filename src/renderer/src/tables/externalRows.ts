/**
 * Rows for the Results view's External engines panel and the marks an external engine's row
 * carries in the timing table. Pure; the words come from shared/externalEngineFacts, as report.md's.
 */
import {
  commandLineText, countersText, engineAgreementText, engineComputesText, engineMemoryText, engineSummaryText, exitText, failureText,
} from '../../../shared/externalEngineFacts';
import type { ExternalEngineInfo } from '../../../shared/externalEngines';
import type { Report, StrategyResult } from '../../../shared/report';

export interface ExternalEngineRow {
  /** the engine's name in the run (`numpy`, `nld:clusterless_kde:x64`): the results row's */
  name: string;
  /** what the engine said it is (its hello); '–' where it never said */
  engine: string;
  /** what its timings cover: the likelihood, or the whole decode of a model */
  computes: string;
  /** how its likelihood (or posterior) agreed with what it was checked against; '–' when it was not */
  agreement: string;
  version: string;
  device: string;
  dtype: string;
  ok: boolean;
  /** set when the engine cannot run on this machine: why */
  unavailable?: string;
  exit: string;
  peakRss: string;
  counters: string;
  command: string;
  /** the engine's own facts (JAX version, BLAS, x64 …), "key: value" each, for the row's tooltip */
  info: string;
}

const orDash = (s: string): string => (s === '' ? '–' : s);

/** a results row an external engine measured, with what it reported of itself */
export type ExternalResult = StrategyResult & { external: ExternalEngineInfo };

export function externalResults(report: Pick<Report, 'strategies'>): ExternalResult[] {
  return report.strategies.filter((s): s is ExternalResult => s.external !== undefined);
}

export function externalEngineRows(report: Pick<Report, 'strategies'>): ExternalEngineRow[] {
  return externalResults(report).map((s) => {
    const e = s.external;
    const row: ExternalEngineRow = {
      name: String(s.strategy),
      engine: orDash(e.engine), computes: engineComputesText(e), agreement: orDash(engineAgreementText(s)), version: orDash(e.version), device: orDash(e.device), dtype: orDash(e.dtype),
      ok: s.status === 'ok',
      exit: orDash(exitText(e)),
      peakRss: engineMemoryText(e) || '–',
      counters: orDash(countersText(e.counters)),
      command: commandLineText(e.command),
      info: Object.entries(e.info).map(([k, v]) => `${k}: ${String(v)}`).join('\n'),
    };
    if (e.unavailable !== undefined) row.unavailable = e.unavailable;
    return row;
  });
}

/** The timing table's cell for a failed row: an engine that cannot run here says so apart from a failure. */
export function failureCell(s: Pick<StrategyResult, 'external' | 'error'>): string {
  return s.external?.unavailable !== undefined ? failureText(s) : `failed: ${failureText(s)}`;
}

/**
 * The timing table's sub-line under an external engine's name: "external · 2.1.3 · cpu · float32",
 * with "whole decoder" after "external" when its times are of the whole decode, not the likelihood.
 */
export function externalMark(s: Pick<StrategyResult, 'external'>): string {
  if (!s.external) return '';
  const what = s.external.posterior ? `external · whole ${s.external.posterior.model}` : 'external';
  const summary = engineSummaryText(s.external);
  return summary === '' ? what : `${what} · ${summary}`;
}
