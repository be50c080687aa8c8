/**
 * Flag parsing on node:util parseArgs, strict: an unknown flag, a missing value or a malformed
 * number is a UsageError naming the flag.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './cliTypes';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export function parseFlags(args: string[], options: Options, maxPositionals = 0): Parsed {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: maxPositionals > 0 });
  } catch (e) {
    // parseArgs words its errors for programmers ("Unknown option '--x'. To specify a positional…"); keep the first sentence
    const text = (e as Error).message.split(/\.(?:\s|$)/)[0]!;
    throw new UsageError(text);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument '${parsed.positionals[maxPositionals]}'`);
  }
  return { values: parsed.values as Parsed['values'], positionals: parsed.positionals };
}

export function stringFlag(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function intFlag(p: Parsed, name: string, min: number): number | undefined {
  const v = stringFlag(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^[+-]?\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`--${name}: expected an integer ≥ ${min}, got '${v}'`);
  }
  return n;
}

export function numberFlag(p: Parsed, name: string, positive = true): number | undefined {
  const v = stringFlag(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || (positive && n <= 0)) {
    throw new UsageError(`--${name}: expected a ${positive ? 'positive ' : ''}number, got '${v}'`);
  }
  return n;
}

export function boolFlag(p: Parsed, name: string): boolean {
  return p.values[name] === true;
}
