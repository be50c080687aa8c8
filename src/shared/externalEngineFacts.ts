/**
 * What a results row of an external engine says about the run of it, in words: the same facts in
 * the app's External engines panel and in report.md, so the two read alike.
 */
import type { ExternalEngineInfo } from './externalEngines';
import { formatAbsDiff, formatBytes, formatMs, formatShare } from './format';
import type { Report, StrategyResult } from './report';

/** words a shell would read as they are: no quoting needed */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * The command the profiler ran, as one line a person can paste into a shell: a word with spaces
 * or shell characters in single quotes (the profiler ran the argv itself, without a shell).
 */
export function commandLineText(argv: readonly string[]): string {
  return argv.map((w) => (PLAIN_WORD.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** "0", "3", "SIGKILL"; '' for an engine that never started (each table shows its own dash) */
export function exitText(info: Pick<ExternalEngineInfo, 'exitCode' | 'signal'>): string {
  if (info.signal) return info.signal;
  return info.exitCode === null ? '' : String(info.exitCode);
}

/** "xla compilations 3, cache misses 1": each counter's last value; '' without any */
export function countersText(counters: Readonly<Record<string, number>> | undefined): string {
  const entries = Object.entries(counters ?? {});
  if (entries.length === 0) return '';
  return entries.map(([name, v]) => `${name} ${Number.isInteger(v) ? v : Number(v.toPrecision(4))}`).join(', ');
}

/** "2.1.3 · cpu · float32": what the engine said it is, leaving out what it did not say */
export function engineSummaryText(info: Pick<ExternalEngineInfo, 'version' | 'device' | 'dtype'>): string {
  return [info.version, info.device, info.dtype].filter((x) => x !== '').join(' · ');
}

/**
 * Why a row failed, in words: an engine that cannot run on this machine (a package is missing)
 * says so with its reason, apart from one that ran and failed; else the row's error message.
 */
export function failureText(s: Pick<StrategyResult, 'external' | 'error'>): string {
  const why = s.external?.unavailable;
  if (why !== undefined) return `not available on this machine: ${why}`;
  return s.error?.message ?? 'no reason given';
}

/**
 * "412 MiB", or "412 MiB · GPU 3.1 GiB" where nvidia-smi answered while the engine ran (the GPUs'
 * used memory, what was there before included); '' when nothing was measured
 */
export function engineMemoryText(info: Pick<ExternalEngineInfo, 'peakRssBytes' | 'peakGpuBytes'>): string {
  const parts = [
    info.peakRssBytes === undefined ? '' : formatBytes(info.peakRssBytes),
    info.peakGpuBytes === undefined ? '' : `GPU ${formatBytes(info.peakGpuBytes)}`,
  ];
  return parts.filter(Boolean).join(' · ');
}

/** What a row's timings cover: "likelihood", or "whole decoder (fit, likelihood, posterior)" for an engine that decoded the model. */
export function engineComputesText(info: Pick<ExternalEngineInfo, 'posterior'>): string {
  return info.posterior ? `whole ${info.posterior.model} (fit, likelihood, posterior)` : 'likelihood';
}

/** The run's own whole decode, to read an engine's whole-decode time against. */
export interface OwnWholeDecode {
  ms: number;
  /** the own strategy whose likelihood it takes (the fastest that decoded), and the posterior's method */
  strategy: string;
  posteriorMethod: string;
}

/**
 * The run's own whole decode of its model: its fastest own strategy's warm median (fit and
 * likelihood), plus the posterior's filter and smoother (the reported method), plus the
 * detector's Local-state likelihood. Undefined without a posterior or an own strategy that decoded.
 */
export function ownWholeDecode(report: Pick<Report, 'strategies' | 'posterior' | 'local'>): OwnWholeDecode | undefined {
  const p = report.posterior;
  if (!p) return undefined;
  const own = report.strategies.filter((s) => !s.external && s.status === 'ok' && s.total);
  const fastest = own.reduce<StrategyResult | undefined>((best, s) => (!best || s.total!.medianMs < best.total!.medianMs ? s : best), undefined);
  if (!fastest) return undefined;
  const local = p.model === 'detector' ? p.localMs ?? report.local?.timing.medianMs ?? 0 : 0;
  return { ms: fastest.total!.medianMs + p.filterMs + p.smoothMs + local, strategy: String(fastest.strategy), posteriorMethod: p.method };
}

/** "whole decoder: ours 180 ms (series likelihood + structured posterior) · nld:decoder 111 ms (0.62×)"; undefined without both sides */
export function wholeDecodeText(report: Pick<Report, 'strategies' | 'posterior' | 'local'>): string | undefined {
  const ours = ownWholeDecode(report);
  const engines = report.strategies.filter((s) => s.external?.posterior && s.status === 'ok' && s.total);
  if (!ours || engines.length === 0) return undefined;
  const theirs = engines.map((s) => `${s.strategy} ${formatMs(s.total!.medianMs)} (${(s.total!.medianMs / ours.ms).toFixed(2)}× ours)`);
  return `whole ${report.posterior!.model}, warm: ours ${formatMs(ours.ms)} (${ours.strategy} likelihood + ${ours.posteriorMethod} posterior) · ${theirs.join(' · ')}`;
}

/**
 * "max |Δ| 2.0e-6 vs the run's decoder posterior (structured), allclose, same argmax in 100 % of
 * rows": how the engine's result agreed with what it was checked against; '' when it was not.
 */
export function engineAgreementText(s: Pick<StrategyResult, 'agreementWithReference'>): string {
  const a = s.agreementWithReference;
  if (!a) return '';
  return `max |Δ| ${formatAbsDiff(a.maxAbsDiff)} vs ${a.against}, ${a.allclose ? 'allclose' : 'NOT allclose'}, same argmax in ${formatShare(a.argmaxAgreement)} of rows`;
}
