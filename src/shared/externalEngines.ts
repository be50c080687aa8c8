/**
 * External engines: other implementations of the likelihood, or of the whole decode, that a run
 * starts as child processes and profiles beside its own strategies (docs/external-engines.md).
 * Their names, the one check every front door passes them through, and what the report keeps of each.
 */
import type { PosteriorModel } from './config';
import type { PosteriorParameters } from './posteriorParameters';
import { AppError } from './errors';

/** non_local_detector's likelihood modules an `nld:` engine can run */
export const NLD_VARIANTS = ['clusterless_kde', 'clusterless_kde_log'] as const;
export type NldVariant = (typeof NLD_VARIANTS)[number];

/** non_local_detector's models an `nld:` engine can run whole (fit, likelihood, filter, smoother) */
export const NLD_MODELS = ['decoder', 'detector'] as const satisfies readonly PosteriorModel[];

/** `numpy`, `nld:VARIANT|MODEL`, `nld:VARIANT|MODEL:x64`, or `cmd:COMMAND` (the command line only) */
export type ExternalEngineName = 'numpy' | `nld:${string}` | `cmd:${string}`;

const NLD_NAMES = [...NLD_VARIANTS, ...NLD_MODELS];

/** The engines the app and web mode offer: those that run the project's own adapters. */
export const OFFERED_ENGINES: readonly ExternalEngineName[] = [
  'numpy', ...NLD_NAMES.map((v) => `nld:${v}` as const), ...NLD_NAMES.map((v) => `nld:${v}:x64` as const),
];

export type ParsedEngine =
  | { kind: 'numpy'; name: ExternalEngineName }
  | { kind: 'nld'; name: ExternalEngineName; variant: NldVariant; x64: boolean }
  | { kind: 'nld-model'; name: ExternalEngineName; model: PosteriorModel; x64: boolean }
  | { kind: 'cmd'; name: ExternalEngineName; argv: string[] };

/** engines one run may start */
export const MAX_ENGINES = 8;
const MAX_NAME_CHARS = 1000;
/** how long an engine may run before it is stopped, unless the run says otherwise */
export const DEFAULT_ENGINE_TIMEOUT_S = 1800;
export const MAX_ENGINE_TIMEOUT_S = 7 * 86_400;

function bad(key: string, message: string): AppError {
  return new AppError('BAD_ARGUMENT', `run config '${key}': ${message}`, { key });
}

/**
 * Splits a command line into words as a POSIX shell would quote them, without any expansion:
 * single quotes keep everything, double quotes keep all but `\"` and `\\`, a backslash outside
 * quotes keeps the next character. Throws on an unclosed quote.
 */
export function splitCommandWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const close = c === "'" ? line.indexOf("'", i + 1) : closingDoubleQuote(line, i + 1);
      if (close < 0) throw new Error(`unclosed ${c} quote`);
      const inner = line.slice(i + 1, close);
      word += c === "'" ? inner : inner.replace(/\\(["\\])/g, '$1');
      inWord = true;
      i = close;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

function closingDoubleQuote(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '"') return i;
  }
  return -1;
}

/** One engine name, checked; throws AppError('BAD_ARGUMENT') saying which names exist. */
export function parseEngineName(raw: unknown, key = 'engines'): ParsedEngine {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_NAME_CHARS || raw.includes('\0')) {
    throw bad(key, `expected an engine name of at most ${MAX_NAME_CHARS} characters, got ${JSON.stringify(raw)?.slice(0, 80)}`);
  }
  if (raw === 'numpy') return { kind: 'numpy', name: raw };
  if (raw.startsWith('nld:')) {
    const [variant, precision, ...rest] = raw.slice(4).split(':');
    if (!(NLD_NAMES as readonly string[]).includes(variant ?? '') || rest.length > 0 || (precision !== undefined && precision !== 'x64')) {
      throw bad(key, `unknown NLD engine ${JSON.stringify(raw)}: expected nld:${NLD_NAMES.join(', nld:')}, optionally followed by :x64`);
    }
    const x64 = precision === 'x64';
    const name = raw as ExternalEngineName;
    if ((NLD_MODELS as readonly string[]).includes(variant!)) return { kind: 'nld-model', name, model: variant as PosteriorModel, x64 };
    return { kind: 'nld', name, variant: variant as NldVariant, x64 };
  }
  if (raw.startsWith('cmd:')) {
    let argv: string[];
    try {
      argv = splitCommandWords(raw.slice(4));
    } catch (e) {
      throw bad(key, `cannot read the command of ${JSON.stringify(raw)}: ${(e as Error).message}`);
    }
    if (argv.length === 0) throw bad(key, "a 'cmd:' engine needs a command after the colon, e.g. 'cmd:python3 my_decoder.py'");
    return { kind: 'cmd', name: raw as ExternalEngineName, argv };
  }
  throw bad(key, `unknown engine ${JSON.stringify(raw)}: expected numpy, nld:${NLD_NAMES.join(', nld:')} (optionally :x64) or cmd:COMMAND`);
}

/** The posterior model an engine decodes whole, for the engines known to; undefined for a likelihood engine or a command. */
export function engineModelOf(name: string): PosteriorModel | undefined {
  const [kind, variant] = name.split(':');
  return kind === 'nld' && (NLD_MODELS as readonly string[]).includes(variant ?? '') ? (variant as PosteriorModel) : undefined;
}

/** the parameters NLD's whole-decode engines take from the run (as local_position_std); the others are NLD's own defaults there */
const NLD_TAKES: readonly (keyof PosteriorParameters)[] = ['localPositionStd'];

const PARAMETER_FLAG: Record<keyof PosteriorParameters, string> = {
  movementVar: '--movement-var', noSpikeRate: '--no-spike-rate', discreteTransition: '--discrete-transition', localPositionStd: '--local-position-std',
};

/**
 * An engine that decodes the posterior whole is compared with the run's own posterior, so the run
 * must decode that model too, with parameters the engine decodes with as well; throws saying which
 * flag to add or drop.
 */
export function checkEnginesAgainstModel(engines: readonly string[] | undefined, model: PosteriorModel | undefined, parameters: PosteriorParameters = {}): void {
  for (const [i, name] of (engines ?? []).entries()) {
    const needs = engineModelOf(name);
    if (needs && needs !== model) {
      throw bad(`engines[${i}]`, `${name} decodes the ${needs}'s posterior; the run decodes ${model ? `the ${model}'s` : 'no posterior'}: ` +
        `add --model ${needs} (Run setup: posterior model) so its posterior can be compared with the run's own`);
    }
    const unshared = needs ? (Object.keys(parameters) as (keyof PosteriorParameters)[]).filter((k) => !NLD_TAKES.includes(k)) : [];
    if (unshared.length > 0) {
      throw bad(`engines[${i}]`, `${name} decodes with non_local_detector's own ${unshared.map((k) => PARAMETER_FLAG[k]).join(', ')}, so its posterior would not be comparable with the run's: ` +
        'drop them to compare with NLD at its defaults, or drop the engine');
    }
  }
}

/** The run's engines, checked: at most MAX_ENGINES, each once; undefined when none are asked. */
export function parseEngines(v: unknown): ExternalEngineName[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length > MAX_ENGINES) throw bad('engines', `expected a list of at most ${MAX_ENGINES} engine names`);
  const names = [...new Set(v.map((e, i) => parseEngineName(e, `engines[${i}]`).name))];
  return names.length > 0 ? names : undefined;
}

/** An interpreter path for the Python adapters: a plain path, no NUL, bounded. */
export function parseEnginePython(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length === 0 || v.length > 4096 || v.includes('\0')) {
    throw bad('enginePython', 'expected the path of a Python interpreter');
  }
  return v;
}

/** Whether a results row's name is an external engine's (else it is one of the engine's strategies). */
export function isExternalEngineName(name: string): name is ExternalEngineName {
  return name === 'numpy' || name.startsWith('nld:') || name.startsWith('cmd:');
}

/**
 * A file name for an engine's files (its likelihood, its folder): `nld:clusterless_kde:x64` →
 * `nld-clusterless_kde-x64`, a command by its program's name (`cmd:python3 my.py` → `cmd-python3-my.py`).
 */
export function engineSlug(name: string): string {
  const words = isCommandEngine(name) ? name.slice(4).trim().split(/\s+/).slice(0, 3).map((w) => w.split(/[\\/]/).pop() ?? w) : [name];
  const slug = (isCommandEngine(name) ? ['cmd', ...words].join('-') : name.replace(/:/g, '-')).replace(/[^A-Za-z0-9._-]+/g, '_');
  return slug.slice(0, 80).replace(/^[.]+/, '_');
}

export function isCommandEngine(name: string): boolean {
  return name.startsWith('cmd:');
}

/** What the report keeps of an external engine's run, beside its timings and agreement. */
export interface ExternalEngineInfo {
  /** what the engine said it is (its hello): name, version, device, dtype */
  engine: string;
  version: string;
  device: string;
  dtype: string;
  /** the engine's own facts (JAX version, BLAS, x64 …) */
  info: Record<string, string | number | boolean>;
  /** what the profiler ran */
  command: string[];
  exitCode: number | null;
  signal?: string;
  /** set when the engine cannot run on this machine (a package is missing): why */
  unavailable?: string;
  /** XLA compilations and the like: each counter's last value */
  counters?: Record<string, number>;
  /** the highest resident memory of the engine's whole process tree, sampled from outside */
  peakRssBytes?: number;
  /** the GPUs' highest used memory while the engine ran (nvidia-smi; includes what was there before) */
  peakGpuBytes?: number;
  /**
   * Set when the engine decoded the whole model (fit, likelihood, filter, smoother): its timings are
   * of that whole decode, and its acausal posterior (the file, from the run folder) was compared
   * with the run's own posterior of the same model.
   */
  posterior?: { model: PosteriorModel; file: string };
}
