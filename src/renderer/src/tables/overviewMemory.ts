/**
 * Memory in the Results overview: the peak the run measured against the machine's memory, the
 * whole recording's where a decode projected one, and what the formula's estimate covers. The
 * measured peak leads: an estimate of the likelihood's tensors for one electrode is a small part
 * of what the engine process holds (the runtime, the data, the posterior), and a sentence that
 * set the two side by side without saying so read as if they disagreed. Pure.
 */
import type { Report, StrategyResult } from '../../../shared/report';
import { formatBytes, formatShare } from '../../../shared/format';

/** a peak above this share of the machine's memory is a caveat: the recording may not fit */
export const MEMORY_WARN_SHARE = 0.8;

export interface MemoryOverview {
  /** the measured peak the bar shows */
  peakBytes: number;
  /** "the engine process's RSS" or "tensors" */
  peakOf: string;
  machineBytes: number;
  /** peakBytes of machineBytes, 0–1 */
  share: number;
  /** the whole recording's projected peak, where a decode projected one */
  projectedBytes?: number;
  projectedShare?: number;
  /** "1.21 GiB peak · 15.1 % of 8.00 GiB" */
  headline: string;
  text: string;
  /** what the formula's estimate covers and what the rest of the peak is; '' without an estimate */
  estimate: string;
  /** the measured or projected peak is near or past the machine's memory */
  warn: boolean;
}

function largest(values: readonly (number | undefined)[]): number | undefined {
  const finite = values.filter((v): v is number => v !== undefined && Number.isFinite(v) && v > 0);
  return finite.length > 0 ? Math.max(...finite) : undefined;
}

/** the fastest finished strategy: the one the overview's times are of */
function fastestOf(report: Report): StrategyResult | undefined {
  const ok = report.strategies.filter((s) => s.status === 'ok' && s.total !== undefined);
  return ok.sort((x, y) => x.total!.medianMs - y.total!.medianMs)[0];
}

function estimateWords(report: Report, peakBytes: number, peakOf: string): string {
  const s = fastestOf(report);
  const estimated = s?.memory?.estimatedPeakBytes;
  if (!s || estimated === undefined || !Number.isFinite(estimated)) return '';
  const posterior = report.posterior?.memory;
  // a dispatch's estimate is of the strategy it chose
  const resolved = [...new Set(s.resolved)];
  const name = resolved.length > 0 ? resolved.join(', ') : s.strategy;
  const besides = ['the runtime', 'the data', ...(posterior ? [`the posterior's ${formatBytes(posterior.measuredBytes)} (measured)`] : [])];
  const list = `${besides.slice(0, -1).join(', ')} and ${besides[besides.length - 1]}`;
  const rest = peakOf === 'tensors' ? '' : `; the rest of the peak is ${list}`;
  return `The formula's ${formatBytes(estimated)} is ${name}'s likelihood tensors for the largest electrode (what the memory budget limits)${rest}.`;
}

/** Null where the run measured no memory (nothing finished, or a report from before memory was kept). */
export function memoryOverview(report: Report): MemoryOverview | null {
  const ok = report.strategies.filter((s) => s.status === 'ok');
  const rss = largest([...ok.map((s) => s.memory?.peakRssBytes), report.projection?.peakRssBytes?.measured]);
  const tensors = largest(ok.map((s) => s.memory?.measuredPeakTensorBytes));
  const peakBytes = rss ?? tensors;
  const machineBytes = report.environment.totalMemoryBytes;
  if (peakBytes === undefined || !(machineBytes > 0)) return null;
  const peakOf = rss !== undefined ? "the engine process's RSS" : 'tensors';
  const share = peakBytes / machineBytes;
  const measured = rss !== undefined
    ? "Measured: the engine process's peak RSS."
    : "Measured: the tensors' peak (the process's RSS was not sampled).";
  const gpu = largest(ok.map((s) => s.memory?.gpuBytes));
  const gpuWords = gpu !== undefined ? ` GPU memory in use peaked at ${formatBytes(gpu)}.` : '';
  const overview: MemoryOverview = {
    peakBytes, peakOf, machineBytes, share, estimate: estimateWords(report, peakBytes, peakOf), warn: share > MEMORY_WARN_SHARE,
    headline: `${formatBytes(peakBytes)} peak · ${formatShare(share)} of ${formatBytes(machineBytes)}`,
    text: `${measured}${gpuWords}`,
  };
  const projected = report.projection?.peakRssBytes?.projected;
  if (projected !== undefined && Number.isFinite(projected)) {
    overview.projectedBytes = projected;
    overview.projectedShare = projected / machineBytes;
    overview.warn ||= overview.projectedShare > MEMORY_WARN_SHARE;
    overview.text += ` The whole recording: about ${formatBytes(projected)} (${formatShare(overview.projectedShare)}).`;
  }
  return overview;
}
