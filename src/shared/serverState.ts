/**
 * What the service says about its runs folder, beside the machine's facts in getInfo's answer: an
 * archived or snapshot folder opened read-only is browsed like any other (list, reports,
 * timelines), but no run can start there, and the page should say so before anyone fills in a run.
 * Kept apart from api.ts: the field rides on SystemInfo without changing its contract, and a page
 * reads it through runsFolderOf, which checks it came as described.
 */
import type { SystemInfo } from './api';

export interface RunsFolderState {
  /** the runs folder, as the service resolved it */
  path: string;
  /** a run's folder can be made there: runs may start */
  canStartRuns: boolean;
  /** the system's reason when they cannot: EROFS (a read-only disk or mount), EACCES, ENOSPC… */
  code?: string;
  /** when they cannot: why, and what to do, in a sentence a person can act on */
  reason?: string;
}

/** getInfo's answer from a service that knows its runs folder (every service does since runsFolder was added) */
export interface ServiceInfo extends SystemInfo {
  runsFolder: RunsFolderState;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalText = (v: unknown): boolean => v === undefined || (typeof v === 'string' && v.length <= 10_000);

/** The runs folder's state from getInfo's answer; undefined from an older service, or when malformed. */
export function runsFolderOf(info: SystemInfo): RunsFolderState | undefined {
  const v = (info as Partial<ServiceInfo>).runsFolder as unknown;
  if (!isObject(v) || typeof v.path !== 'string' || typeof v.canStartRuns !== 'boolean') return undefined;
  if (!optionalText(v.code) || !optionalText(v.reason)) return undefined;
  return v as unknown as RunsFolderState;
}
