/**
 * The runtime checks shared by the page's view requests (likelihood, posterior): each refusal is a
 * BAD_ARGUMENT naming the key.
 */
import { AppError } from './errors';

export function badRequest(key: string, message: string): AppError {
  return new AppError('BAD_ARGUMENT', `${key}: ${message}`, { key });
}

/** v as a whole number in [min, max], or a refusal naming the key. */
export function wholeNumberIn(v: unknown, key: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw badRequest(key, `expected a whole number in [${min}, ${max}], got ${JSON.stringify(v)}`);
  }
  return v;
}
