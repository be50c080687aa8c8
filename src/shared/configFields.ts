/**
 * The checks of one field of a run config, each throwing AppError('BAD_ARGUMENT') that names the
 * config's key, as parseRunConfig (config.ts) reports every field it refuses.
 */
import { AppError } from './errors';

export function bad(key: string, message: string): AppError {
  return new AppError('BAD_ARGUMENT', `run config '${key}': ${message}`, { key });
}

export function int(v: unknown, key: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw bad(key, `expected an integer in [${min}, ${max}], got ${JSON.stringify(v)}`);
  }
  return v;
}

export function optInt(v: unknown, key: string, min: number, max: number): number | undefined {
  return v === undefined || v === null ? undefined : int(v, key, min, max);
}

export function oneOf<T extends string>(v: unknown, key: string, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw bad(key, `expected one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
  }
  return v as T;
}

export function bool(v: unknown, key: string, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw bad(key, `expected true or false, got ${JSON.stringify(v)}`);
  return v;
}
