/**
 * JSON from a file anyone may have written: its length and nesting are checked before it is
 * parsed, so a deeply nested file (a hundred thousand brackets) gets a plain error instead of a
 * RangeError later, when something walks or serializes it. The check is one pass over the text.
 */
import { AppError } from './errors';

export interface JsonBounds {
  /** the most characters the text may hold */
  maxChars: number;
  /** the deepest nesting of arrays and objects allowed */
  maxDepth: number;
}

/** generous for every file the program writes (reports nest about ten deep) */
export const DEFAULT_JSON_BOUNDS: JsonBounds = { maxChars: 64 * 2 ** 20, maxDepth: 64 };

/** The deepest nesting in `text`, stopping once past `limit` (strings skipped, escapes honoured). */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** Parses `text` (named `name` in errors) within `bounds`; AppError BAD_ARGUMENT otherwise. */
export function parseBoundedJson(text: string, name: string, bounds: JsonBounds = DEFAULT_JSON_BOUNDS): unknown {
  if (text.length > bounds.maxChars) {
    throw new AppError('BAD_ARGUMENT', `${name} holds ${text.length} characters, more than the ${bounds.maxChars} allowed: the file is damaged or not one of ours.`, { file: name });
  }
  if (jsonDepth(text, bounds.maxDepth) > bounds.maxDepth) {
    throw new AppError('BAD_ARGUMENT', `${name} nests deeper than ${bounds.maxDepth} levels: the file is damaged or not one of ours.`, { file: name });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new AppError('BAD_ARGUMENT', `${name} is not valid JSON (${(e as Error).message}): the file is damaged.`, { file: name });
  }
}
