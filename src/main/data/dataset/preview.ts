/** A light view of a dataset for plotting: decimated positions and per-electrode spike times. */
import type { DataPreview } from '../../../shared/api';
import type { Dataset } from '../../../shared/dataset';

const PREVIEW_POINTS = 2000;

/** every k-th entry so that at most `max` remain (the last one always kept) */
function decimate(values: ArrayLike<number>, max: number, stride = 1, column = 0): number[] {
  const n = Math.floor(values.length / stride);
  const step = Math.max(1, Math.ceil(n / max));
  const out: number[] = [];
  for (let i = 0; i < n; i += step) out.push(values[i * stride + column]!);
  if (n > 0 && (n - 1) % step !== 0 && out.length < max) out.push(values[(n - 1) * stride + column]!);
  return out;
}

/** Positions (first coordinate when 2-D) and encoding spike times, thinned for plotting. */
export function previewDataset(d: Dataset): DataPreview {
  return {
    positionTime: decimate(d.positionTime, PREVIEW_POINTS),
    position: decimate(d.position, PREVIEW_POINTS, d.positionDims, 0),
    spikeTimes: d.electrodes.map((e) => ({ electrode: e.name, times: decimate(e.encodingSpikeTimes, PREVIEW_POINTS) })),
  };
}
