/**
 * The data preview as the chart draws it: the service's preview (encoding position and encoding
 * spikes over their own times) plus the decoding grid's time span from the summary, so the chart
 * can shade the window that is decoded. The summary's "time span" is that grid, not the preview's
 * range; drawn together, the two tell one consistent story.
 */
import type { DataInspection, DataPreview } from '../../../shared/api';

export interface DecodingWindow {
  startS: number;
  endS: number;
  rows: number;
}

export interface ChartPreview extends DataPreview {
  decoding?: DecodingWindow;
}

export interface InspectionView extends DataInspection {
  preview: ChartPreview | null;
}

/** the inspection with the decoding window attached to its preview (the summary knows it) */
export function withDecodingWindow(inspection: DataInspection): InspectionView {
  const { preview, summary } = inspection;
  if (!preview || !summary || summary.nTime === 0) return inspection;
  const [startS, endS] = summary.timeSpan;
  if (!Number.isFinite(startS) || !Number.isFinite(endS)) return inspection;
  return { ...inspection, preview: { ...preview, decoding: { startS, endS, rows: summary.nTime } } };
}
