/**
 * How the mapping step words a candidate: shape, unit and conversion, time range, sampling rate and
 * NaN share in one line, so two LED series can be told apart at a glance.
 */
import type { PositionCandidate, TimeSource } from '../../../shared/nwb';
import { formatNumber } from '../lib/format';

const MAPPABLE = /\.(nwb|h5|hdf5)$|\.recipe\.json$/i;

/** files the mapping step opens: NWB/HDF5 data and saved recipes */
export function isMappableFile(path: string): boolean {
  return MAPPABLE.test(path.trim());
}

export function timeRangeText(range: [number, number] | null): string {
  return range ? `${formatNumber(range[0])}–${formatNumber(range[1])} s` : 'time range unknown';
}

function timeSourceText(t: TimeSource): string {
  return t.kind === 'timestamps' ? 'timestamps' : `${formatNumber(t.rateHz)} Hz from ${formatNumber(t.startingTime)} s`;
}

export function candidateFacts(c: PositionCandidate): string {
  const shape = c.shape.length === 1 ? `(${c.shape[0]},)` : `(${c.shape.join(', ')})`;
  const unit = c.unit ? `${c.unit}${c.conversion !== 1 ? ` × ${formatNumber(c.conversion)}` : ''}${c.offset !== 0 ? ` + ${formatNumber(c.offset)}` : ''}` : 'no unit';
  const parts = [
    shape,
    unit,
    timeRangeText(c.timeRange),
    timeSourceText(c.time),
    c.medianRateHz !== null ? `median ${formatNumber(c.medianRateHz, 3)} Hz` : null,
    c.nanPct !== null ? `NaN ${c.nanPct.toFixed(1)} %` : null,
    c.referenceFrame ? `frame: ${c.referenceFrame}` : null,
  ];
  return parts.filter((p): p is string => p !== null).join(' · ');
}
