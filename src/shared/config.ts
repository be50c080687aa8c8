/**
 * What a run is asked to do, and its runtime check. The same RunConfig comes from the CLI flags,
 * the UI's run setup and the WebSocket API; parseRunConfig is the one gate all of them pass.
 */
import { bad, bool, int, oneOf, optInt } from './configFields';
import { checkEnginesAgainstModel, DEFAULT_ENGINE_TIMEOUT_S, MAX_ENGINE_TIMEOUT_S, parseEnginePython, parseEngines, type ExternalEngineName } from './externalEngines';
import { checkPosteriorParameters, type PosteriorParameters } from './posteriorParameters';
import { didYouMean } from './suggest';

export const STRATEGIES = ['reference', 'logsumexp', 'logsumexp-tiled', 'chunked', 'compensated', 'streaming', 'series'] as const;
export type StrategyName = (typeof STRATEGIES)[number];
/**
 * Strategies resolved per electrode by the engine: `auto` picks the one the calibrated cost model
 * predicts fastest among those whose accuracy bound holds for the data; `nld-dispatch` follows
 * non_local_detector's heuristic (by feature count and memory budget), kept for comparison.
 */
export const DISPATCHES = ['auto', 'nld-dispatch'] as const;
export type DispatchName = (typeof DISPATCHES)[number];
/** what a user may ask for: a concrete strategy or a dispatch (resolved per electrode by the engine) */
export type StrategyChoice = StrategyName | DispatchName;
/** every name a run accepts as a strategy */
export const STRATEGY_CHOICES: readonly StrategyChoice[] = [...STRATEGIES, ...DISPATCHES];

export function isDispatch(strategy: string): strategy is DispatchName {
  return (DISPATCHES as readonly string[]).includes(strategy);
}

export const BACKENDS = ['wasm', 'cpu', 'webgpu', 'tensorflow'] as const;
export type BackendName = (typeof BACKENDS)[number];
export type BackendChoice = BackendName | 'auto';

/** the peer generator's sizes (spikes without place information), then `place`: a place-tuned simulation that decodes */
export const PRESETS = ['tiny', 'small', 'medium', 'large', 'realistic', 'place'] as const;
export type PresetName = (typeof PRESETS)[number];

export type DataSource =
  | { kind: 'preset'; name: PresetName; seed: number; features: number; featureScale: number }
  | { kind: 'file'; path: string };

export interface RunConfig {
  data: DataSource;
  backend: BackendChoice;
  strategies: StrategyChoice[];
  /** decoding spikes per block; undefined = the dataset's block size (default 100) */
  blockSize?: number;
  /** encoding-spike chunk for chunked/streaming/compensated (e'); undefined = engine default */
  encTileSize?: number;
  /** position tile for logsumexp-tiled and the chunked inner loop; undefined = engine default */
  posTileSize?: number;
  /** memory budget in bytes that `auto` keeps each strategy's estimated peak under */
  memoryBudgetBytes?: number;
  /** engine workers the electrodes are spread over; undefined = one per core on CPU backends, one on a GPU */
  workers?: number;
  /** tensorflow backend on NVIDIA: let float32 matmuls run in TF32 (10-bit mantissa); off unless asked */
  allowTf32?: boolean;
  /** false: skip the per-strategy kernel profile (tf.profile of one warm call); default on */
  kernelProfile?: boolean;
  /** warm repeats per strategy; with `untilStable`, the fewest before the stopping rule applies */
  repeats: number;
  /**
   * `--repeats auto`: keep repeating past `repeats` until the bootstrap 95 % interval of the median
   * is within ±relativeCi of it, or the strategy has used maxTimeS, or maxRepeats were taken
   */
  untilStable?: StoppingRule;
  warmup: number;
  local: boolean;
  saveLikelihood: boolean;
  trace: boolean;
  /** free text shown in the run list */
  label?: string;
  /** compute only this share of the electrodes (a SLURM array task), to be merged with the others */
  shard?: ShardSpec;
  /** after the likelihood, the state-space posterior on it, timed once per posterior method; absent: none */
  posterior?: PosteriorRequest;
  /** other implementations profiled beside the strategies, each as a child process (docs/external-engines.md) */
  engines?: ExternalEngineName[];
  /** the Python the numpy and nld adapters run under; default KDE_PROFILER_PYTHON, else python3 */
  enginePython?: string;
  /** an external engine still running after this many seconds is stopped; default DEFAULT_ENGINE_TIMEOUT_S */
  engineTimeoutS?: number;
  /** ask each external engine for its framework's own trace of one extra warm call (JAX's profiler) */
  engineTrace?: boolean;
}

/** The posterior a profiling run ends with: one model, its filter and smoother timed per method. */
export interface PosteriorRequest {
  model: PosteriorModel;
  /**
   * In POSTERIOR_METHODS order whatever order was asked: dense (non_local_detector's way) runs first
   * and is what the others are compared with; structured runs last, so posterior/ holds its outputs.
   * Configs written before the name say `strategies`; parseRunConfig reads them.
   */
  methods: PosteriorMethod[];
  /** the model's parameters where the run changes them (movement variance, …); absent: NLD's defaults */
  parameters?: PosteriorParameters;
}

export interface StoppingRule {
  /** half-width of the median's 95 % interval, as a share of the median (0.05: ±5 %) */
  relativeCi: number;
  /** wall-clock budget per strategy for its warm repeats, seconds */
  maxTimeS: number;
  maxRepeats: number;
}

export const DEFAULT_STOPPING_RULE: StoppingRule = { relativeCi: 0.05, maxTimeS: 60, maxRepeats: 200 };

/**
 * The state-space models a decode can end with (posterior-spec §3): `decoder` (one continuous
 * state, random walk) and `detector` (Local, No-Spike, Non-Local Continuous, Non-Local Fragmented).
 */
export const POSTERIOR_MODELS = ['decoder', 'detector'] as const;
export type PosteriorModel = (typeof POSTERIOR_MODELS)[number];

/**
 * The posterior's methods, how its filter and smoother apply the transition matrix: `dense` as
 * non_local_detector does (N × N per time bin), `structured` through its blocks (banded random
 * walk, rank-1 uniform, scalars). Not strategies: that word names the likelihood's (STRATEGIES).
 */
export const POSTERIOR_METHODS = ['dense', 'structured'] as const;
export type PosteriorMethod = (typeof POSTERIOR_METHODS)[number];

/** how electrodes are dealt to shards */
export const SHARD_SPLITS = ['round-robin', 'spikes'] as const;
export type ShardSplit = (typeof SHARD_SPLITS)[number];

export interface ShardSpec {
  /** 0-based, as SLURM_ARRAY_TASK_ID: shard `index` of `count` */
  index: number;
  count: number;
  /** round-robin: electrodes index, index+count, …; spikes: a balanced split by spike count */
  by: ShardSplit;
}

export const DEFAULT_RUN_CONFIG: Omit<RunConfig, 'data'> = {
  backend: 'wasm',
  strategies: ['reference', 'compensated'],
  repeats: 3,
  warmup: 1,
  local: false,
  saveLikelihood: false,
  trace: true,
};

function parseStoppingRule(v: unknown): StoppingRule | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw bad('untilStable', 'expected an object');
  const r = v as Record<string, unknown>;
  const relativeCi = r.relativeCi ?? DEFAULT_STOPPING_RULE.relativeCi;
  if (typeof relativeCi !== 'number' || !(relativeCi > 0 && relativeCi < 1)) {
    throw bad('untilStable.relativeCi', `expected a share between 0 and 1, got ${JSON.stringify(relativeCi)}`);
  }
  const maxTimeS = r.maxTimeS ?? DEFAULT_STOPPING_RULE.maxTimeS;
  if (typeof maxTimeS !== 'number' || !(maxTimeS > 0 && maxTimeS <= 86_400)) {
    throw bad('untilStable.maxTimeS', `expected seconds between 0 and 86400, got ${JSON.stringify(maxTimeS)}`);
  }
  return { relativeCi, maxTimeS, maxRepeats: int(r.maxRepeats ?? DEFAULT_STOPPING_RULE.maxRepeats, 'untilStable.maxRepeats', 1, 10_000) };
}

function parseShard(v: unknown): ShardSpec | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw bad('shard', 'expected an object');
  const r = v as Record<string, unknown>;
  const count = int(r.count, 'shard.count', 1, 100_000);
  return { index: int(r.index, 'shard.index', 0, count - 1), count, by: oneOf(r.by ?? 'round-robin', 'shard.by', SHARD_SPLITS) };
}

function parseData(v: unknown): DataSource {
  if (typeof v !== 'object' || v === null) throw bad('data', 'expected an object');
  const d = v as Record<string, unknown>;
  if (d.kind === 'preset') {
    const featureScale = d.featureScale ?? 1;
    if (typeof featureScale !== 'number' || !Number.isFinite(featureScale) || featureScale <= 0) {
      throw bad('data.featureScale', `expected a positive number, got ${JSON.stringify(featureScale)}`);
    }
    return {
      kind: 'preset',
      name: oneOf(d.name, 'data.name', PRESETS),
      seed: int(d.seed ?? 42, 'data.seed', 0, 2 ** 32 - 1),
      features: int(d.features ?? 2, 'data.features', 1, 64),
      featureScale,
    };
  }
  if (d.kind === 'file') {
    if (typeof d.path !== 'string' || d.path.length === 0 || d.path.length > 4096 || d.path.includes('\0')) {
      throw bad('data.path', 'expected a non-empty file path');
    }
    return { kind: 'file', path: d.path };
  }
  throw bad('data.kind', `expected 'preset' or 'file', got ${JSON.stringify(d.kind)}`);
}

/** `methods`, or `strategies` (its name in configs written before) */
function parsePosterior(v: unknown): PosteriorRequest | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw bad('posterior', 'expected an object { model, methods }');
  const r = v as Record<string, unknown>;
  if (r.methods !== undefined && r.strategies !== undefined) throw bad('posterior.methods', 'give methods alone: strategies is its old name');
  const key = r.methods === undefined && r.strategies !== undefined ? 'posterior.strategies' : 'posterior.methods';
  const asked = r.methods ?? r.strategies ?? POSTERIOR_METHODS;
  if (!Array.isArray(asked) || asked.length === 0) throw bad(key, `expected a non-empty list of ${POSTERIOR_METHODS.join(', ')}`);
  const named = new Set(asked.map((s, i) => oneOf(s, `${key}[${i}]`, POSTERIOR_METHODS)));
  const model = oneOf(r.model, 'posterior.model', POSTERIOR_MODELS);
  const parameters = checkPosteriorParameters(r.parameters, model);
  return { model, methods: POSTERIOR_METHODS.filter((s) => named.has(s)), ...(Object.keys(parameters).length > 0 ? { parameters } : {}) };
}

/** strategies one run may ask for, at most */
const MAX_STRATEGIES = 16;

/**
 * The one check of a run's strategy list: 1 to 16 names, each a strategy or a dispatch, kept once
 * each in the order first given. An unknown name is refused with the nearest one that exists.
 * parseRunConfig applies it to every config (the service's gate); a front door with words of its
 * own beside the names (the CLI's `all`) applies it to what the person typed, naming those words
 * (`frontDoorWords`) in the message and among the suggestions.
 */
export function parseStrategies(raw: unknown, frontDoorWords: readonly string[] = []): StrategyChoice[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_STRATEGIES) {
    throw bad('strategies', 'expected a non-empty list of strategy names');
  }
  const known: readonly string[] = STRATEGY_CHOICES;
  const listed = [STRATEGY_CHOICES.join(', '), ...frontDoorWords].join(' or ');
  return [...new Set(raw.map((s: unknown, i) => {
    if (typeof s === 'string' && known.includes(s)) return s as StrategyChoice;
    const near = typeof s === 'string' ? didYouMean(s, [...STRATEGY_CHOICES, ...frontDoorWords]) : '';
    throw bad(`strategies[${i}]`, `expected one of ${listed}, got ${JSON.stringify(s)}${near}`);
  }))];
}

/** more engine workers than this would only share the same cores */
export const MAX_WORKERS = 64;

/** Validates an untrusted value into a RunConfig; throws AppError('BAD_ARGUMENT') naming the key. */
export function parseRunConfig(raw: unknown): RunConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad('(root)', 'expected an object');
  const r = raw as Record<string, unknown>;
  const strategies = parseStrategies(r.strategies ?? DEFAULT_RUN_CONFIG.strategies);
  const budget = r.memoryBudgetBytes;
  if (budget !== undefined && (typeof budget !== 'number' || !(budget > 0) || !Number.isFinite(budget))) {
    throw bad('memoryBudgetBytes', `expected a positive number of bytes, got ${JSON.stringify(budget)}`);
  }
  const label = r.label;
  if (label !== undefined && (typeof label !== 'string' || label.length > 200)) {
    throw bad('label', 'expected a string of at most 200 characters');
  }
  const shard = parseShard(r.shard);
  const posterior = parsePosterior(r.posterior);
  const engines = parseEngines(r.engines);
  if (engines && shard) throw bad('engines', 'external engines decode every electrode; run them without a shard');
  checkEnginesAgainstModel(engines, posterior?.model, posterior?.parameters);
  const enginePython = parseEnginePython(r.enginePython);
  const engineTimeoutS = optInt(r.engineTimeoutS, 'engineTimeoutS', 1, MAX_ENGINE_TIMEOUT_S);
  if (posterior && shard) {
    throw bad('posterior', 'a shard holds only some electrodes and the posterior needs the likelihood of all of them; run the posterior without a shard');
  }
  return {
    data: parseData(r.data),
    backend: oneOf(r.backend ?? DEFAULT_RUN_CONFIG.backend, 'backend', [...BACKENDS, 'auto'] as const),
    strategies,
    blockSize: optInt(r.blockSize, 'blockSize', 1, 1_000_000),
    encTileSize: optInt(r.encTileSize, 'encTileSize', 1, 100_000_000),
    posTileSize: optInt(r.posTileSize, 'posTileSize', 1, 100_000_000),
    memoryBudgetBytes: budget as number | undefined,
    workers: optInt(r.workers, 'workers', 1, MAX_WORKERS),
    allowTf32: r.allowTf32 === undefined ? undefined : bool(r.allowTf32, 'allowTf32', false),
    kernelProfile: r.kernelProfile === undefined ? undefined : bool(r.kernelProfile, 'kernelProfile', true),
    repeats: int(r.repeats ?? DEFAULT_RUN_CONFIG.repeats, 'repeats', 1, 1000),
    untilStable: parseStoppingRule(r.untilStable),
    warmup: int(r.warmup ?? DEFAULT_RUN_CONFIG.warmup, 'warmup', 0, 100),
    local: bool(r.local, 'local', DEFAULT_RUN_CONFIG.local),
    saveLikelihood: bool(r.saveLikelihood, 'saveLikelihood', DEFAULT_RUN_CONFIG.saveLikelihood),
    trace: bool(r.trace, 'trace', DEFAULT_RUN_CONFIG.trace),
    label: label as string | undefined,
    shard,
    ...(posterior ? { posterior } : {}),
    ...(engines ? { engines } : {}),
    ...(enginePython ? { enginePython } : {}),
    ...(engineTimeoutS !== undefined && engineTimeoutS !== DEFAULT_ENGINE_TIMEOUT_S ? { engineTimeoutS } : {}),
    ...(engines && bool(r.engineTrace, 'engineTrace', false) ? { engineTrace: true } : {}),
  };
}
