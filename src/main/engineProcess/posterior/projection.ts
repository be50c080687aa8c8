/**
 * A decode of a window of the recording (`make-recording --decode-last`, a lab's test slice) says
 * how long the whole recording would take: its rows at the decode's row step over the span of the
 * position samples, each stage's measured time scaled by rows (every stage is linear in rows once
 * the model is fitted).
 */
import type { Dataset } from '../../../shared/dataset';
import type { PosteriorReport } from '../../../shared/posteriorReport';

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

/** The projection, or undefined when the decode already covers the recording or its times say nothing. */
export function recordingProjection(dataset: Dataset, times: StageTimes): PosteriorReport['projection'] {
  const rows = dataset.time.length;
  const step = medianStep(dataset.time);
  const positionTime = dataset.positionTime;
  if (rows < 2 || !(step > 0) || positionTime.length < 2) return undefined;
  const span = positionTime[positionTime.length - 1]! - positionTime[0]!;
  const recordingRows = Math.floor(span / step) + 1;
  if (!Number.isFinite(recordingRows) || recordingRows <= rows) return undefined;
  const scale = recordingRows / rows;
  return {
    recordingRows,
    likelihoodMs: times.likelihoodMs * scale,
    localMs: times.localMs * scale,
    posteriorMs: times.posteriorMs * scale,
  };
}
