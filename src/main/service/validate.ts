/**
 * Runtime checks for every argument the service takes: the IPC and WebSocket layers hand it values
 * straight from the other side, so nothing is trusted by its static type.
 */
import { isAbsolute } from 'node:path';
import { AppError } from '../../shared/errors';
import { DEFAULT_RUN_PAGE, MAX_RUN_PAGE, type ExportFormat, type NpzExportOptions, type RunPageRequest, type SpanAreaRequest, type SpanSearchRequest, type TimelineRequest } from '../../shared/api';
import { isNpzExportOptions } from '../../shared/apiArgs';
import { parseRunConfig, type DataSource, type RunConfig } from '../../shared/config';

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

/** listRunPage's request with its defaults filled in; an offset past the end is an empty page, not an error */
export function runPageRequest(v: unknown): Required<RunPageRequest> {
  if (v === undefined) return { offset: 0, limit: DEFAULT_RUN_PAGE };
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad('request', 'expected { offset?, limit? }');
  const r = v as Record<string, unknown>;
  const unknown = Object.keys(r).filter((k) => k !== 'offset' && k !== 'limit');
  if (unknown.length > 0) throw bad(`request.${unknown[0]}`, 'expected only offset and limit');
  const offset = r.offset === undefined ? 0 : finiteNumber(r.offset, 'request.offset', 0, Number.MAX_SAFE_INTEGER);
  const limit = r.limit === undefined ? DEFAULT_RUN_PAGE : finiteNumber(r.limit, 'request.limit', 1, MAX_RUN_PAGE);
  if (!Number.isInteger(offset) || !Number.isInteger(limit)) throw bad('request', `expected whole numbers, got offset ${offset} and limit ${limit}`);
  return { offset, limit };
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

/** as long as a run config's data path may be */
export const MAX_PATH_CHARS = 4096;

/**
 * A path from the other side must be absolute: a relative one would be read against whatever
 * folder the server happens to run in. Front doors with a folder of their own (the CLI) resolve
 * against it first.
 */
export function absolutePath(v: unknown, key: string): string {
  const path = boundedString(v, key, MAX_PATH_CHARS);
  if (!isAbsolute(path)) {
    throw new AppError('BAD_ARGUMENT', `${key}: '${path}' is a relative path; give an absolute path (for example /data/session.nwb).`, { key });
  }
  return path;
}

/** A data source as parseRunConfig checks it, with a file's path absolute. */
export function dataSource(v: unknown): DataSource {
  const source = parseRunConfig({ data: v }).data;
  if (source.kind === 'file') absolutePath(source.path, 'data.path');
  return source;
}

/** A run config as parseRunConfig checks it, with its data file's path absolute. */
export function runConfig(v: unknown): RunConfig {
  const config = parseRunConfig(v);
  if (config.data.kind === 'file') absolutePath(config.data.path, 'data.path');
  return config;
}

export function npzExportOptions(v: unknown): Required<NpzExportOptions> {
  if (v === undefined) return { overwrite: false };
  if (!isNpzExportOptions(v)) throw bad('options', 'expected { overwrite?: true | false } and no other keys');
  return { overwrite: v.overwrite === true };
}

export function listener(v: unknown): (e: never) => void {
  if (typeof v !== 'function') throw bad('listener', 'expected a function');
  return v as (e: never) => void;
}
