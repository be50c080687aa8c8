/**
 * Runtime checks for every argument the service takes: the IPC and WebSocket layers hand it values
 * straight from the other side, so nothing is trusted by its static type.
 */
import { AppError } from '../../shared/errors';
import type { ExportFormat, SpanAreaRequest, SpanSearchRequest, TimelineRequest } from '../../shared/api';

export const MAX_TIMELINE_WIDTH_PX = 20_000;
const EXPORT_FORMATS: readonly ExportFormat[] = ['trace', 'trace-json', 'json', 'md', 'csv'];

function bad(key: string, message: string): AppError {
  return new AppError('BAD_ARGUMENT', `${key}: ${message}`, { key });
}

export function finiteNumber(v: unknown, key: string, min = -Infinity, max = Infinity): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw bad(key, `expected a finite number in [${min}, ${max}], got ${JSON.stringify(v)}`);
  }
  return v;
}

export function boundedString(v: unknown, key: string, maxLength = 200): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > maxLength || v.includes('\0')) {
    throw bad(key, `expected a non-empty string of at most ${maxLength} characters`);
  }
  return v;
}

export function timelineRequest(v: unknown): TimelineRequest {
  if (typeof v !== 'object' || v === null) throw bad('request', 'expected { startUs, endUs, widthPx }');
  const r = v as Record<string, unknown>;
  const startUs = finiteNumber(r.startUs, 'request.startUs', -1e15, 1e15);
  const endUs = finiteNumber(r.endUs, 'request.endUs', -1e15, 1e15);
  if (endUs <= startUs) throw bad('request.endUs', `must be after startUs (${startUs}), got ${endUs}`);
  const widthPx = Math.round(finiteNumber(r.widthPx, 'request.widthPx', 1, MAX_TIMELINE_WIDTH_PX));
  return { startUs, endUs, widthPx };
}

/** lanes one area may name: far more than a trace has (a lane per thread and electrode) */
export const MAX_AREA_LANES = 4096;

export function spanSearchRequest(v: unknown): SpanSearchRequest {
  if (typeof v !== 'object' || v === null) throw bad('request', "expected { text, fromUs, direction: 'next' | 'previous' }");
  const r = v as Record<string, unknown>;
  const text = boundedString(r.text, 'request.text');
  const fromUs = finiteNumber(r.fromUs, 'request.fromUs', -1e15, 1e15);
  if (r.direction !== 'next' && r.direction !== 'previous') throw bad('request.direction', `expected 'next' or 'previous', got ${JSON.stringify(r.direction)}`);
  return { text, fromUs, direction: r.direction };
}

export function spanAreaRequest(v: unknown): SpanAreaRequest {
  if (typeof v !== 'object' || v === null) throw bad('request', 'expected { startUs, endUs, lanes }');
  const r = v as Record<string, unknown>;
  const startUs = finiteNumber(r.startUs, 'request.startUs', -1e15, 1e15);
  const endUs = finiteNumber(r.endUs, 'request.endUs', -1e15, 1e15);
  if (endUs <= startUs) throw bad('request.endUs', `must be after startUs (${startUs}), got ${endUs}`);
  if (!Array.isArray(r.lanes) || r.lanes.length > MAX_AREA_LANES) throw bad('request.lanes', `expected a list of at most ${MAX_AREA_LANES} lane ids`);
  const lanes = r.lanes.map((l, i) => boundedString(l, `request.lanes[${i}]`));
  return { startUs, endUs, lanes };
}

export function exportFormat(v: unknown): ExportFormat {
  if (typeof v !== 'string' || !(EXPORT_FORMATS as readonly string[]).includes(v)) {
    throw bad('format', `expected one of ${EXPORT_FORMATS.join(', ')}, got ${JSON.stringify(v)}`);
  }
  return v as ExportFormat;
}

/** a strategy name or 'local': it becomes part of a file name, so only plain names pass */
export function likelihoodName(v: unknown): string {
  const s = boundedString(v, 'strategy', 40);
  if (!/^[a-z][a-z-]*$/.test(s)) throw bad('strategy', `expected a strategy name like 'compensated', got ${JSON.stringify(s)}`);
  return s;
}

export function listener(v: unknown): (e: never) => void {
  if (typeof v !== 'function') throw bad('listener', 'expected a function');
  return v as (e: never) => void;
}
