/**
 * Runtime check for trace records read back from disk or received from another process: the
 * exporter drops anything that is not one of the four record shapes instead of writing it.
 */
import type { ProcessRole, TraceRecord } from '../../shared/events';

const ROLES = new Set<string>(['service', 'engine', 'external']);
const SCOPES = new Set<string>(['t', 'p', 'g']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function finite(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

export function isProcessRole(v: unknown): v is ProcessRole {
  return typeof v === 'string' && ROLES.has(v);
}

export function isTraceRecord(v: unknown): v is TraceRecord {
  if (!isObject(v) || !isProcessRole(v.proc)) return false;
  switch (v.ph) {
    case 'X':
      return typeof v.name === 'string' && typeof v.tid === 'number' && finite(v.ts) && finite(v.dur)
        && (v.args === undefined || isObject(v.args));
    case 'C':
      return typeof v.name === 'string' && finite(v.ts) && isObject(v.args);
    case 'I':
      return typeof v.name === 'string' && typeof v.tid === 'number' && finite(v.ts)
        && (v.s === undefined || (typeof v.s === 'string' && SCOPES.has(v.s)))
        && (v.args === undefined || isObject(v.args));
    case 'M':
      return v.name === 'thread_name' && typeof v.tid === 'number' && isObject(v.args) && typeof v.args.name === 'string';
    default:
      return false;
  }
}
