/**
 * What a decode of part of a recording (a lab's test slice, `make-recording --decode-last`) says
 * about decoding all of it: the recording's rows at the decode's row step over the position
 * samples' span, each stage's measured time scaled by rows (once the model is fitted every stage is
 * linear in rows), the interval the spread of the likelihood's batch rates gives, and the peak memory
 * with what grows with rows added.
 */
import { formatBytes, formatMs } from './format';

export interface RecordingProjection {
  /** rows the whole recording has at this decode's row step */
  recordingRows: number;
  /** rows this decode computed */
  decodedRows: number;
  likelihoodMs: number;
  /** the detector's Local likelihood (0 without one) */
  localMs: number;
  /** the filter and the smoother (0 without a posterior) */
  posteriorMs: number;
  /**
   * 95 % interval of the whole (likelihood + local + posterior): the rates of the likelihood's
   * batches of windows after the first resampled, applied to every stage alike. Absent with fewer
   * than four batches (a decode of up to 32 MiB of likelihood is one).
   */
  totalCi95?: [number, number];
  /** the decode's peak RSS, and that peak with what grows with rows (decoding spikes, per-row arrays) scaled to the recording */
  peakRssBytes?: { measured: number; projected: number };
}

export function projectedTotalMs(j: RecordingProjection): number {
  return j.likelihoodMs + j.localMs + j.posteriorMs;
}

/** One sentence: the whole recording's time (with its interval), its parts, and its peak memory. */
export function projectionSentence(j: RecordingProjection): string {
  const interval = j.totalCi95 ? ` (95 % interval ${formatMs(j.totalCi95[0])}–${formatMs(j.totalCi95[1])})` : '';
  const parts = [
    `likelihood ${formatMs(j.likelihoodMs)}`,
    ...(j.localMs > 0 ? [`local likelihood ${formatMs(j.localMs)}`] : []),
    ...(j.posteriorMs > 0 ? [`filter and smoother ${formatMs(j.posteriorMs)}`] : []),
  ];
  const memory = j.peakRssBytes
    ? `; peak memory about ${formatBytes(j.peakRssBytes.projected)} (this decode: ${formatBytes(j.peakRssBytes.measured)})`
    : '';
  const rows = `${j.recordingRows.toLocaleString('en-US')} rows, ${(j.recordingRows / j.decodedRows).toFixed(1)}× this decode's ${j.decodedRows.toLocaleString('en-US')}`;
  return `The whole recording (${rows}) would take about ${formatMs(projectedTotalMs(j))}${interval}: ${parts.join(', ')}${memory}.`;
}
