/**
 * The choices for the next run and the memory estimate for them, asked again (debounced) whenever
 * a choice or the data changes, so the person sees the cost before pressing Start.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch, type ComputedRef, type Ref } from 'vue';
import type { BackendAvailability, MemoryEstimate, PosteriorMemoryEstimate } from '../../../shared/api';
import {
  DEFAULT_RUN_CONFIG, DEFAULT_STOPPING_RULE, POSTERIOR_METHODS, POSTERIOR_MODELS, STRATEGY_CHOICES as ALL_STRATEGY_CHOICES, type BackendChoice, type DataSource,
  type PosteriorModel, type RunConfig, type StrategyChoice,
} from '../../../shared/config';
import { checkEnginesAgainstModel, engineModelOf, OFFERED_ENGINES, type ExternalEngineName } from '../../../shared/externalEngines';
import { useLatestRequest } from '../composables/useLatestRequest';
import { errorText } from '../lib/errorText';
import { debounce } from '../lib/timing';
import { useApi } from './apiAccess';
import { useDataStore } from './dataStore';
import { posteriorParameterChoices, posteriorParametersOf } from './posteriorParameterChoices';
import type { PosteriorParameters } from '../../../shared/posteriorParameters';
import { useSystemStore } from './systemStore';

export const ESTIMATE_DEBOUNCE_MS = 300;
export const STRATEGY_CHOICES: readonly StrategyChoice[] = ALL_STRATEGY_CHOICES;
/** the run's state-space posterior after the likelihood: none, or a model timed with both of its methods */
export const POSTERIOR_CHOICES: readonly (PosteriorModel | 'none')[] = ['none', ...POSTERIOR_MODELS];
/** Whether an engine can run beside a run decoding this model (none: undefined): a whole-decode engine needs its own model. */
export function engineFitsModel(engine: ExternalEngineName, model: PosteriorModel | undefined): boolean {
  const needs = engineModelOf(engine);
  return needs === undefined || needs === model;
}

/** the external engines the app may start: the project's own adapters, never a `cmd:` command */
export const ENGINE_CHOICES: readonly ExternalEngineName[] = OFFERED_ENGINES;

export interface BackendOption {
  value: BackendChoice;
  label: string;
  available: boolean;
  detail: string;
}

export function backendOptions(backends: readonly BackendAvailability[]): BackendOption[] {
  const available = backends.filter((b) => b.available).map((b) => b.name);
  return [
    { value: 'auto', label: 'auto', available: true, detail: available.length ? `picks among ${available.join(', ')}` : 'picks the best available' },
    ...backends.map((b) => ({ value: b.name, label: b.isGpu ? `${b.name} (GPU)` : b.name, available: b.available, detail: b.detail })),
  ];
}

/** blank or non-positive means "engine default" */
function optionalSize(v: number | null | undefined): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

/** what the person chooses for the next run, as the form edits it */
function runChoices() {
  return {
    strategies: ref<StrategyChoice[]>([...DEFAULT_RUN_CONFIG.strategies]),
    /** external engines profiled beside the strategies, in the order offered */
    engines: ref<ExternalEngineName[]>([]),
    backend: ref<BackendChoice>(DEFAULT_RUN_CONFIG.backend),
    repeats: ref(DEFAULT_RUN_CONFIG.repeats),
    /** repeat past `repeats` until the median is stable (the CLI's --repeats auto), within maxTimeS per strategy */
    repeatsAuto: ref(true),
    maxTimeS: ref<number>(DEFAULT_STOPPING_RULE.maxTimeS),
    warmup: ref(DEFAULT_RUN_CONFIG.warmup),
    /** blank: one per core on CPU backends, one on a GPU */
    workers: ref<number | null>(null),
    /** MiB that auto keeps each strategy's estimated peak under; blank: the engine's default */
    memoryBudgetMiB: ref<number | null>(null),
    blockSize: ref<number | null>(null),
    encTileSize: ref<number | null>(null),
    posTileSize: ref<number | null>(null),
    local: ref(DEFAULT_RUN_CONFIG.local),
    saveLikelihood: ref(true),
    posterior: ref<PosteriorModel | 'none'>('none'),
    ...posteriorParameterChoices(),
    label: ref(''),
  };
}

type RunChoices = ReturnType<typeof runChoices>;

/** the run config the choices make for a data source, with the posterior's parameters as read from the form; a blank size is left to the engine */
function runConfigOf(choices: RunChoices, data: DataSource, parameters: PosteriorParameters | undefined): RunConfig {
  const c: RunConfig = {
    data,
    backend: choices.backend.value,
    strategies: [...choices.strategies.value],
    repeats: choices.repeats.value,
    warmup: choices.warmup.value,
    local: choices.local.value,
    saveLikelihood: choices.saveLikelihood.value,
    trace: true,
  };
  // an engine that decodes a model whole runs only beside the run's own posterior of that model
  const model = choices.posterior.value === 'none' ? undefined : choices.posterior.value;
  const engines = choices.engines.value.filter((e) => engineFitsModel(e, model));
  if (engines.length > 0) c.engines = engines;
  if (choices.repeatsAuto.value) c.untilStable = { ...DEFAULT_STOPPING_RULE, maxTimeS: choices.maxTimeS.value };
  const workers = optionalSize(choices.workers.value);
  if (workers !== undefined) c.workers = workers;
  const budget = choices.memoryBudgetMiB.value;
  if (typeof budget === 'number' && budget > 0) c.memoryBudgetBytes = Math.round(budget * 2 ** 20);
  const b = optionalSize(choices.blockSize.value);
  const e = optionalSize(choices.encTileSize.value);
  const p = optionalSize(choices.posTileSize.value);
  if (b !== undefined) c.blockSize = b;
  if (e !== undefined) c.encTileSize = e;
  if (p !== undefined) c.posTileSize = p;
  if (choices.label.value.trim()) c.label = choices.label.value.trim();
  if (model) c.posterior = { model, methods: [...POSTERIOR_METHODS], ...(parameters && Object.keys(parameters).length > 0 ? { parameters } : {}) };
  return c;
}

/** why the service would refuse the config's engines beside its posterior (a parameter NLD would not share), or null */
function engineRefusal(c: RunConfig): string | null {
  try {
    checkEnginesAgainstModel(c.engines, c.posterior?.model, c.posterior?.parameters);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** the memory estimate of a config, asked again (debounced) whenever something that changes memory changes */
function useMemoryEstimate(config: ComputedRef<RunConfig>, strategies: Ref<StrategyChoice[]>) {
  const estimates = shallowRef<MemoryEstimate[]>([]);
  /** the posterior stage's, per method, when the config asks for a posterior */
  const posteriorEstimates = shallowRef<PosteriorMemoryEstimate[]>([]);
  /** the strategy choices the estimates answer, in the order asked (auto's estimate names what auto picks) */
  const estimatedFor = shallowRef<StrategyChoice[]>([]);
  const estimating = ref(false);
  const estimateError = ref<string | null>(null);
  const estimateRequests = useLatestRequest();

  async function estimate(): Promise<void> {
    const ticket = estimateRequests.next();
    if (strategies.value.length === 0) {
      estimates.value = [];
      posteriorEstimates.value = [];
      estimatedFor.value = [];
      return;
    }
    estimating.value = true;
    estimateError.value = null;
    const asked = config.value;
    await ticket.settle(() => useApi().estimateMemory(asked), {
      onAnswer: (result) => {
        estimates.value = result.strategies;
        posteriorEstimates.value = result.posterior;
        estimatedFor.value = [...asked.strategies];
      },
      onError: (e) => {
        estimates.value = [];
        posteriorEstimates.value = [];
        estimatedFor.value = [];
        estimateError.value = errorText(e).message;
      },
      onSettled: () => {
        estimating.value = false;
      },
    });
  }

  const scheduleEstimate = debounce(() => void estimate(), ESTIMATE_DEBOUNCE_MS);
  // the label, repeat counts and the external engines (which the estimate does not cover) do not change it; everything else may
  const estimateKey = computed(() => {
    const { label: _l, repeats: _r, warmup: _w, untilStable: _u, engines: _e, ...rest } = config.value;
    return JSON.stringify(rest);
  });
  watch(estimateKey, () => scheduleEstimate());

  return { estimates, posteriorEstimates, estimatedFor, estimating, estimateError, estimate, scheduleEstimate };
}

export const useRunSetupStore = defineStore('runSetup', () => {
  const data = useDataStore();
  const system = useSystemStore();
  const choices = runChoices();
  const { strategies, backend, repeats, warmup, repeatsAuto, maxTimeS, workers } = choices;

  const backends = computed(() => backendOptions(system.info?.backends ?? []));
  const selectedBackend = computed(() => backends.value.find((b) => b.value === backend.value));
  /** the posterior's parameters from the form and why the service would refuse them; null without a posterior */
  const posteriorParameters = computed(() => (choices.posterior.value === 'none' ? null : posteriorParametersOf(choices, choices.posterior.value)));
  const config = computed<RunConfig>(() => runConfigOf(choices, data.source, posteriorParameters.value?.parameters));
  const memory = useMemoryEstimate(config, strategies);

  /** why Start is disabled, or null when a run may start */
  const blocker = computed<string | null>(() => {
    // the service would refuse the start: nothing the person chooses here changes that
    const folder = system.runsFolder;
    if (folder && !folder.canStartRuns) return `No run can start in the runs folder ${folder.path}${folder.code ? ` (${folder.code})` : ''}.`;
    if (strategies.value.length === 0) return 'Choose at least one strategy.';
    if (!Number.isInteger(repeats.value) || repeats.value < 1) return 'Repeats must be a whole number of at least 1.';
    if (!Number.isInteger(warmup.value) || warmup.value < 0) return 'Warm-ups must be a whole number of 0 or more.';
    if (repeatsAuto.value && !(maxTimeS.value > 0)) return 'The time per strategy of repeats until stable must be a positive number of seconds.';
    if (workers.value !== null && workers.value !== 0 && !(Number.isInteger(workers.value) && workers.value >= 1)) return 'Workers must be a whole number of at least 1, or blank.';
    const parametersError = posteriorParameters.value?.error;
    if (parametersError) return `Posterior parameters: ${parametersError}`;
    const engines = engineRefusal(config.value);
    if (engines) return engines;
    if (selectedBackend.value && !selectedBackend.value.available) return `Backend ${backend.value} is not available here: ${selectedBackend.value.detail}.`;
    if (!data.ready) return data.hasErrors ? 'The data has validation errors; see the Data view.' : 'Load a preset or a data file in the Data view first.';
    return null;
  });

  function toggleStrategy(s: StrategyChoice): void {
    strategies.value = strategies.value.includes(s) ? strategies.value.filter((x) => x !== s) : [...strategies.value, s];
  }

  /** on or off; the config lists the engines in the order offered, whatever order they were ticked in */
  function toggleEngine(e: ExternalEngineName): void {
    const on = choices.engines.value.includes(e) ? choices.engines.value.filter((x) => x !== e) : [...choices.engines.value, e];
    choices.engines.value = ENGINE_CHOICES.filter((x) => on.includes(x));
  }

  return { ...choices, ...memory, backends, selectedBackend, config, blocker, toggleStrategy, toggleEngine };
});
