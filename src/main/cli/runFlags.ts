/**
 * `kde-profiler run` flags → RunConfig. parseRunConfig stays the one gate; its messages name
 * config keys, so they are reworded to name the flag the user typed.
 */
import { AppError, isAppError } from '../../shared/errors';
import { DEFAULT_STOPPING_RULE, parseRunConfig, parseStrategies, POSTERIOR_METHODS, POSTERIOR_MODELS, STRATEGIES, type PosteriorModel, type RunConfig } from '../../shared/config';
import { isExternalEngineName, OFFERED_ENGINES } from '../../shared/externalEngines';
import { boolFlag, intFlag, numberFlag, parseFlags, stringFlag, refuseTogether, type Parsed } from './args';
import { UsageError } from './cliTypes';
import { POSTERIOR_METHOD_FLAGS, posteriorMethodFlag } from './posteriorMethodFlag';
import { givenParameterFlag, POSTERIOR_PARAMETER_OPTIONS, posteriorParametersFrom } from './posteriorParameterFlags';
import { didYouMean } from '../../shared/suggest';

export const RUN_OPTIONS = {
  data: { type: 'string' },
  recipe: { type: 'string' },
  seed: { type: 'string' },
  features: { type: 'string' },
  'feature-scale': { type: 'string' },
  backend: { type: 'string' },
  strategy: { type: 'string' },
  'block-size': { type: 'string' },
  'enc-tile': { type: 'string' },
  'pos-tile': { type: 'string' },
  'memory-budget-mb': { type: 'string' },
  repeats: { type: 'string' },
  'max-time': { type: 'string' },
  warmup: { type: 'string' },
  shard: { type: 'string' },
  'shard-by': { type: 'string' },
  local: { type: 'boolean' },
  'save-likelihood': { type: 'boolean' },
  out: { type: 'string' },
  'runs-dir': { type: 'string' },
  'no-trace': { type: 'boolean' },
  'trace-json': { type: 'boolean' },
  label: { type: 'string' },
  workers: { type: 'string' },
  'no-kernel-profile': { type: 'boolean' },
  'allow-tf32': { type: 'boolean' },
  engine: { type: 'string', multiple: true },
  python: { type: 'string' },
  'engine-timeout': { type: 'string' },
  'engine-trace': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const FLAG_OF_KEY: [RegExp, string][] = [
  [/^data\.seed$/, '--seed'],
  [/^data\.features$/, '--features'],
  [/^data\.featureScale$/, '--feature-scale'],
  [/^data\.name$/, '--data preset:NAME'],
  [/^data/, '--data'],
  [/^backend$/, '--backend'],
  [/^strategies/, '--strategy'],
  [/^blockSize$/, '--block-size'],
  [/^encTileSize$/, '--enc-tile'],
  [/^posTileSize$/, '--pos-tile'],
  [/^memoryBudgetBytes$/, '--memory-budget-mb'],
  [/^repeats$/, '--repeats'],
  [/^untilStable\.maxTimeS$/, '--max-time'],
  [/^shard\.by$/, '--shard-by'],
  [/^shard/, '--shard'],
  [/^warmup$/, '--warmup'],
  [/^label$/, '--label'],
  [/^workers$/, '--workers'],
  [/^posterior\.methods/, '--posterior-method'],
  [/^posterior/, '--model'],
  [/^engines/, '--engine'],
  [/^enginePython$/, '--python'],
  [/^engineTimeoutS$/, '--engine-timeout'],
];

function reword(e: AppError): UsageError {
  const key = e.location?.key ?? '';
  const flag = FLAG_OF_KEY.find(([re]) => re.test(key))?.[1];
  const detail = e.message.replace(/^run config '[^']*': /, '');
  return new UsageError(flag ? `${flag}: ${detail}` : e.message);
}

function dataSource(p: Parsed): unknown {
  const data = stringFlag(p, 'data');
  if (data === undefined || data === '') throw new UsageError('--data is required: a .npz or .nwb file, or preset:NAME (tiny, small, medium, large, realistic, place)');
  const presetOnly = ['seed', 'features', 'feature-scale'].filter((f) => p.values[f] !== undefined);
  if (data.startsWith('preset:')) {
    return {
      kind: 'preset',
      name: data.slice('preset:'.length),
      seed: intFlag(p, 'seed', 0),
      features: intFlag(p, 'features', 1),
      featureScale: numberFlag(p, 'feature-scale'),
    };
  }
  if (presetOnly.length > 0) throw new UsageError(`--${presetOnly[0]} applies to synthetic presets (--data preset:NAME), not to a file`);
  return { kind: 'file', path: data };
}

/** `--repeats N` or `--repeats auto` (with `--max-time S`, seconds per strategy) */
function repeatsFrom(p: Parsed): { repeats?: number; untilStable?: unknown } {
  const text = stringFlag(p, 'repeats');
  const maxTimeS = numberFlag(p, 'max-time');
  if (text === 'auto') return { repeats: 5, untilStable: { ...DEFAULT_STOPPING_RULE, ...(maxTimeS === undefined ? {} : { maxTimeS }) } };
  if (maxTimeS !== undefined) throw new UsageError('--max-time applies to --repeats auto');
  return { repeats: intFlag(p, 'repeats', 1) };
}

/**
 * `run`'s own posterior flags. Not in RUN_OPTIONS: decode has flags of the same names that mean one
 * posterior, and sweep takes RUN_OPTIONS whole.
 */
export const RUN_POSTERIOR_OPTIONS = {
  model: { type: 'string' },
  ...POSTERIOR_METHOD_FLAGS,
  ...POSTERIOR_PARAMETER_OPTIONS,
} as const;

/**
 * `--model decoder|detector|none` (none by default) with `--posterior-method structured|dense|both`
 * (both by default) and the model's parameters (--movement-var, …), as decode takes them
 */
function posteriorFrom(p: Parsed): unknown {
  const model = stringFlag(p, 'model') ?? 'none';
  const method = posteriorMethodFlag(p);
  if (model === 'none') {
    const without = method?.flag ?? givenParameterFlag(p);
    if (without !== undefined) throw new UsageError(`${without} needs a posterior: drop it or give --model decoder|detector`);
    return undefined;
  }
  if (!(POSTERIOR_MODELS as readonly string[]).includes(model)) throw new UsageError(`--model ${model}: expected ${POSTERIOR_MODELS.join(', ')} or none`);
  if (method !== undefined && method.value !== 'both' && !(POSTERIOR_METHODS as readonly string[]).includes(method.value)) {
    throw new UsageError(`${method.flag} ${method.value}: expected structured, dense or both`);
  }
  const parameters = posteriorParametersFrom(p, model as PosteriorModel);
  const methods = method === undefined || method.value === 'both' ? [...POSTERIOR_METHODS] : [method.value];
  return { model, methods, ...(Object.keys(parameters).length > 0 ? { parameters } : {}) };
}

/** `--shard I/N` (0 ≤ I < N, as SLURM_ARRAY_TASK_ID) with `--shard-by round-robin|spikes` */
export function shardFrom(p: Parsed): unknown {
  const text = stringFlag(p, 'shard');
  const by = stringFlag(p, 'shard-by');
  if (text === undefined) {
    if (by !== undefined) throw new UsageError('--shard-by applies to --shard I/N');
    return undefined;
  }
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new UsageError(`--shard: expected I/N with 0 ≤ I < N (for example 0/4), got '${text}'`);
  return { index: Number(m[1]), count: Number(m[2]), by: by ?? 'round-robin' };
}

/**
 * `--strategy a,b` or `all`, checked by the contract's one check of a strategy list (with `all`
 * among the words it knows), so a name no strategy has is refused with the nearest one that exists.
 */
function strategiesFrom(p: Parsed): string[] | undefined {
  const text = stringFlag(p, 'strategy');
  if (text === undefined) return undefined;
  if (text === 'all') return [...STRATEGIES];
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  try {
    return parseStrategies(names, ['all']);
  } catch (e) {
    if (isAppError(e) && e.code === 'BAD_ARGUMENT') throw reword(e);
    throw e;
  }
}

/** `--engine NAME`, as often as there are engines; a bare word no engine has gets the nearest one */
function enginesFrom(p: Parsed): string[] | undefined {
  const given = (p.values as Record<string, unknown>).engine;
  if (given === undefined) return undefined;
  const names = (Array.isArray(given) ? given : [given]).map(String);
  const offered = [...OFFERED_ENGINES, 'cmd:COMMAND'];
  for (const n of names) {
    if (!isExternalEngineName(n)) throw new UsageError(`--engine: expected ${offered.join(', ')}, got "${n}"${didYouMean(n, offered)}`);
  }
  return names;
}

export function runConfigFromFlags(p: Parsed): RunConfig {
  const strategies = strategiesFrom(p);
  const budgetMb = numberFlag(p, 'memory-budget-mb');
  const raw = {
    data: dataSource(p),
    backend: stringFlag(p, 'backend'),
    strategies,
    blockSize: intFlag(p, 'block-size', 1),
    encTileSize: intFlag(p, 'enc-tile', 1),
    posTileSize: intFlag(p, 'pos-tile', 1),
    memoryBudgetBytes: budgetMb === undefined ? undefined : budgetMb * 1024 * 1024,
    ...repeatsFrom(p),
    warmup: intFlag(p, 'warmup', 0),
    local: boolFlag(p, 'local'),
    saveLikelihood: boolFlag(p, 'save-likelihood'),
    trace: !boolFlag(p, 'no-trace'),
    label: stringFlag(p, 'label'),
    workers: intFlag(p, 'workers', 1),
    kernelProfile: boolFlag(p, 'no-kernel-profile') ? false : undefined,
    allowTf32: boolFlag(p, 'allow-tf32') ? true : undefined,
    shard: shardFrom(p),
    posterior: posteriorFrom(p),
    engines: enginesFrom(p),
    enginePython: stringFlag(p, 'python'),
    engineTimeoutS: intFlag(p, 'engine-timeout', 1),
    engineTrace: boolFlag(p, 'engine-trace') || undefined,
  };
  try {
    return parseRunConfig(raw);
  } catch (e) {
    if (isAppError(e) && e.code === 'BAD_ARGUMENT') throw reword(e);
    throw e;
  }
}

/** flags that cannot be given together, and why */
const CONTRADICTIONS = [
  ['no-trace', 'trace-json', '--trace-json asks for the trace that --no-trace turns off; give one of them'],
] as const;

/** everything `run` parses */
export const RUN_FLAGS = { ...RUN_OPTIONS, ...RUN_POSTERIOR_OPTIONS } as const;

export function parseRunFlags(args: string[]): Parsed {
  const flags = parseFlags(args, RUN_FLAGS);
  refuseTogether(flags, CONTRADICTIONS);
  return flags;
}
