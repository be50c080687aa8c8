/**
 * Flag parsing on node:util parseArgs, strict: an unknown flag, a missing value, a malformed or
 * out-of-range number, or a flag given twice is a UsageError naming the flag. A negative number
 * after a flag that takes a value is that flag's value (so its range check can say what is wrong).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './cliTypes';
import { didYouMean } from '../../shared/suggest';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** `--flag -5` as `--flag=-5`, for flags that take a value: parseArgs would call it ambiguous */
function joinNegativeValues(args: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    if (a === '--') return [...out, ...args.slice(i)];
    const name = a.startsWith('--') ? a.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d|^-\.\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** Refuses a flag given twice (a flag that may repeat says so with `multiple`). */
function refuseRepeats(tokens: NonNullable<ReturnType<typeof parseArgs>['tokens']>, options: Options): void {
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t.kind !== 'option' || options[t.name]?.multiple) continue;
    if (seen.has(t.name)) throw new UsageError(`--${t.name} is given twice: give it once`);
    seen.add(t.name);
  }
}

/**
 * parseArgs words its errors for programmers ("Unknown option '--x'. To specify a positional…"):
 * an unknown flag is named with the nearest known one, anything else keeps its first sentence.
 */
function usageOf(e: Error & { code?: string }, options: Options): UsageError {
  const typed = /'(-[^']*)'/.exec(e.message)?.[1];
  if (e.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || typed === undefined) return new UsageError(e.message.split(/\.(?:\s|$)/)[0]!);
  const names = Object.keys(options);
  const near = didYouMean(typed.replace(/^-+/, ''), names, (n) => `--${n}`);
  return new UsageError(`unknown flag ${typed}${near || ` (--help lists the flags)`}`);
}

export function parseFlags(args: string[], options: Options, maxPositionals = 0): Parsed {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: joinNegativeValues(args, options), options, strict: true, allowPositionals: maxPositionals > 0, tokens: true });
  } catch (e) {
    throw usageOf(e as Error & { code?: string }, options);
  }
  refuseRepeats(parsed.tokens ?? [], options);
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument '${parsed.positionals[maxPositionals]}'`);
  }
  return { values: parsed.values as Parsed['values'], positionals: parsed.positionals };
}

/** Refuses flags that contradict each other: each pair given together. */
export function refuseTogether(p: Parsed, pairs: ReadonlyArray<readonly [string, string, string]>): void {
  for (const [a, b, why] of pairs) {
    if (p.values[a] !== undefined && p.values[b] !== undefined) throw new UsageError(`--${a} and --${b} contradict each other: ${why}`);
  }
}

export function stringFlag(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function intFlag(p: Parsed, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = stringFlag(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^[+-]?\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`--${name}: expected an integer ${range}, got '${v}'`);
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
