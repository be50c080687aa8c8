/**
 * The shape check every transport applies before a call reaches the service: the right number of
 * arguments of the right basic types. The service validates deeply (run configs, run ids, ranges);
 * this gate keeps a page from calling with extra, missing or wildly typed arguments at all.
 */
import type { ApiMethod, NpzExportOptions, ProfilerApi } from './api';
import { AppError } from './errors';
import { MAX_RUN_ID_CHARS } from './runIds';
import { isSweepId } from './sweep';

type ArgKind = 'runId' | 'sweepId' | 'string' | 'object' | 'number' | 'path' | 'pathOrNull' | 'paths' | 'npzExportOptions';
/** `kind?`: a trailing argument the caller may leave out (absent or undefined) */
type ArgSpec = ArgKind | `${ArgKind}?`;

export const API_ARGS: Record<ApiMethod, readonly ArgSpec[]> = {
  getInfo: [],
  listPresets: [],
  inspectData: ['object'],
  estimateMemory: ['object'],
  startRun: ['object'],
  cancelRun: ['runId'],
  listRuns: [],
  listRunPage: ['object?'],
  getRun: ['runId'],
  deleteRun: ['runId'],
  getTimeline: ['runId', 'object'],
  getCounters: ['runId'],
  findSpan: ['runId', 'object'],
  summarizeArea: ['runId', 'object'],
  getLikelihood: ['runId', 'string', 'object'],
  getPosterior: ['runId', 'object'],
  getPosteriorMap: ['runId', 'object'],
  compareRuns: ['runId', 'runId', 'number'],
  exportRun: ['runId', 'string'],
  pickDataFile: [],
  scanData: ['paths'],
  saveRecipe: ['object', 'path'],
  exportDataAsNpz: ['object', 'pathOrNull', 'npzExportOptions?'],
  listSweeps: [],
  getSweep: ['sweepId'],
};

const MAX_STRING_CHARS = 200;
/** file paths: as long as the service accepts in a run config */
const MAX_PATH_CHARS = 4096;
/** files of one NWB import (one per tetrode) */
const MAX_PATHS = 256;

const isPath = (v: unknown): boolean => typeof v === 'string' && v.length > 0 && v.length <= MAX_PATH_CHARS;

const NPZ_EXPORT_OPTION_KEYS: readonly string[] = ['overwrite'] satisfies (keyof NpzExportOptions)[];

/** exportDataAsNpz's options: a plain object whose only key is `overwrite`, true or false (or undefined) */
export function isNpzExportOptions(v: unknown): v is NpzExportOptions {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  const overwrite = (v as Record<string, unknown>).overwrite;
  return keys.every((k) => NPZ_EXPORT_OPTION_KEYS.includes(k)) && (overwrite === undefined || typeof overwrite === 'boolean');
}

function fits(kind: ArgKind, v: unknown): boolean {
  switch (kind) {
    case 'runId':
      return typeof v === 'string' && v.length > 0 && v.length <= MAX_RUN_ID_CHARS;
    case 'sweepId':
      // the whole rule, not only a length: a sweep id names a folder, so nothing else may get through
      return isSweepId(v);
    case 'string':
      return typeof v === 'string' && v.length <= MAX_STRING_CHARS;
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'path':
      return isPath(v);
    case 'pathOrNull':
      return v === null || isPath(v);
    case 'paths':
      return Array.isArray(v) && v.length > 0 && v.length <= MAX_PATHS && v.every(isPath);
    case 'npzExportOptions':
      return isNpzExportOptions(v);
  }
}

const DESCRIBE: Record<ArgKind, string> = {
  runId: 'a run id',
  sweepId: 'a sweep id like 20250101-120000-a1b2c3',
  string: `a string of at most ${MAX_STRING_CHARS} characters`,
  number: 'a finite number',
  object: 'an object',
  path: `a file path of at most ${MAX_PATH_CHARS} characters`,
  pathOrNull: `null or a file path of at most ${MAX_PATH_CHARS} characters`,
  paths: `a list of 1 to ${MAX_PATHS} file paths`,
  npzExportOptions: '{ overwrite?: boolean } and no other keys',
};

const isOptional = (spec: ArgSpec): boolean => spec.endsWith('?');
const kindOf = (spec: ArgSpec): ArgKind => (isOptional(spec) ? spec.slice(0, -1) : spec) as ArgKind;

/** Throws BAD_ARGUMENT naming the method and argument position when the shape is wrong. */
export function checkArgs(method: ApiMethod, params: readonly unknown[]): void {
  const specs = API_ARGS[method];
  const required = specs.filter((s) => !isOptional(s)).length;
  if (params.length < required || params.length > specs.length) {
    const expected = required === specs.length ? `${required}` : `${required} to ${specs.length}`;
    throw new AppError('BAD_ARGUMENT', `${method}: expected ${expected} argument(s), got ${params.length}`, { key: method });
  }
  params.forEach((value, i) => {
    const spec = specs[i]!;
    if (isOptional(spec) && value === undefined) return;
    if (!fits(kindOf(spec), value)) {
      throw new AppError('BAD_ARGUMENT', `${method}: argument ${i + 1} must be ${DESCRIBE[kindOf(spec)]}`, { key: method, index: i });
    }
  });
}

/** Checks the arguments, then calls the method on the api. */
export async function callApi(api: ProfilerApi, method: ApiMethod, params: readonly unknown[]): Promise<unknown> {
  checkArgs(method, params);
  return (api[method] as (...args: unknown[]) => Promise<unknown>).apply(api, [...params]);
}
