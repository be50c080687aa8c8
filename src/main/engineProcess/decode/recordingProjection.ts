/**
 * A decode of a window of the recording (`make-recording --decode-last`, a lab's test slice) says
 * how long the whole recording would take and how much memory it would hold (shared/projection.ts).
 * Time: each stage's measured time scaled by rows (the likelihood's first batch of windows, which
 * carries the one-off costs, counted once), with an interval from the spread of the later batches'
 * rates. A batch is the unit with a time of its own: its windows are computed together and handed
 * over back to back (engine/likelihood/windows.ts). A decode of one batch has no later rates: its
 * whole time is scaled, one-off costs included, and it has no interval.
 * Memory: a windowed decode holds a window of rows at a time, so what grows with the recording is
 * what the data hold per decoding row and spike (the decoding spikes' times and marks, the row
 * times, the Local likelihood's column): the measured peak plus that much more for the rows the
 * decode did not cover.
 */
import type { Dataset } from '../../../shared/dataset';
import { projectedTotalMs, type RecordingProjection } from '../../../shared/projection';
import { ratioOfSumsCi95 } from '../../analysis';
import type { BatchTime } from '../../engine';

export interface StageTimes {
  likelihoodMs: number;
  localMs: number;
  posteriorMs: number;
}


function medianStep(time: Float64Array): number {
  const steps: number[] = [];
  for (let i = 1; i < time.length; i++) {
    const step = time[i]! - time[i - 1]!;
    if (step > 0 && Number.isFinite(step)) steps.push(step);
  }
  if (steps.length === 0) return NaN;
  steps.sort((a, b) => a - b);
  return steps[steps.length >> 1]!;
}

/** Bytes the decode holds that grow with its rows: the decoding spikes, the row times, the Local likelihood's column. */
export function rowBoundBytes(dataset: Dataset, withLocal: boolean): number {
  let bytes = dataset.time.byteLength * (withLocal ? 2 : 1);
  for (const e of dataset.electrodes) bytes += e.decodingSpikeTimes.byteLength + e.decodingFeatures.byteLength;
  return bytes;
}

/**
 * The likelihood over the recording's rows: its first batch carries one-off costs (kernels
 * compiled, buffers allocated, the workers' first tensors), so it counts once and the rest is
 * scaled from the batches after it; with one batch, or none timed, the whole is scaled.
 */
function likelihoodProjectedMs(measuredMs: number, rows: number, recordingRows: number, batches: readonly BatchTime[]): number {
  const [first, ...rest] = batches;
  const restRows = rest.reduce((s, w) => s + w.rows, 0);
  if (!first || restRows === 0) return measuredMs * (recordingRows / rows);
  const restMs = rest.reduce((s, w) => s + w.ms, 0);
  return first.ms + restMs * ((recordingRows - first.rows) / restRows);
}

/** The projection, or undefined when the decode already covers the recording or its times say nothing. */
export function recordingProjection(
  dataset: Dataset, times: StageTimes, batches: readonly BatchTime[] = [], peakRssBytes?: number,
): RecordingProjection | undefined {
  const rows = dataset.time.length;
  const step = medianStep(dataset.time);
  const positionTime = dataset.positionTime;
  if (rows < 2 || !(step > 0) || positionTime.length < 2) return undefined;
  const span = positionTime[positionTime.length - 1]! - positionTime[0]!;
  const recordingRows = Math.floor(span / step) + 1;
  if (!Number.isFinite(recordingRows) || recordingRows <= rows) return undefined;
  const scale = recordingRows / rows;
  const projection: RecordingProjection = {
    recordingRows,
    decodedRows: rows,
    likelihoodMs: likelihoodProjectedMs(times.likelihoodMs, rows, recordingRows, batches),
    localMs: times.localMs * scale,
    posteriorMs: times.posteriorMs * scale,
  };
  const steady = batches.slice(1);
  const rate = ratioOfSumsCi95(steady.map((w) => w.ms), steady.map((w) => w.rows));
  const steadyRate = steady.reduce((s, w) => s + w.ms, 0) / steady.reduce((s, w) => s + w.rows, 0);
  if (rate && steadyRate > 0) {
    const total = projectedTotalMs(projection);
    projection.totalCi95 = [total * (rate[0] / steadyRate), total * (rate[1] / steadyRate)];
  }
  if (peakRssBytes !== undefined && peakRssBytes > 0) {
    const grows = rowBoundBytes(dataset, times.localMs > 0) * (scale - 1);
    projection.peakRssBytes = { measured: peakRssBytes, projected: Math.round(peakRssBytes + grows) };
  }
  return projection;
}
