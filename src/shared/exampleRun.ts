/**
 * The built-in example (`npm run example`): a preset with every strategy, the likelihoods kept, so
 * a new user sees the whole profiler working after one command. Web mode starts it on the service
 * and opens the page on that run; the desktop window starts it from the page.
 */
import { STRATEGIES, type PresetName, type RunConfig } from './config';

export const EXAMPLE_PRESET_OPTIONS = { seed: 42, features: 2, featureScale: 1 } as const;

export function exampleRunConfig(name: PresetName): RunConfig {
  return {
    data: { kind: 'preset', name, ...EXAMPLE_PRESET_OPTIONS },
    backend: 'wasm',
    strategies: [...STRATEGIES],
    repeats: 3,
    warmup: 1,
    local: false,
    saveLikelihood: true,
    trace: true,
    label: `example: ${name}, every strategy`,
  };
}
