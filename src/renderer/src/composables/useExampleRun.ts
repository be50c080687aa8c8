/**
 * `npm run example` opens the app at #/live?example=NAME: the preset is loaded and a run of every
 * strategy starts at once, so a new user sees the whole profiler working after one command. Once
 * started, the address names the run (#/live?run=<id>), so a reload keeps watching it.
 */
import { PRESETS, STRATEGIES, type PresetName, type RunConfig } from '../../../shared/config';
import { useDataStore, useLiveRunStore, useNavStore } from '../stores';
import { nameStartedRun } from './useRunRoute';

export function exampleFromHash(hash: string): PresetName | null {
  const query = hash.split('?')[1];
  if (query === undefined) return null;
  const name = new URLSearchParams(query).get('example');
  return name !== null && (PRESETS as readonly string[]).includes(name) ? (name as PresetName) : null;
}

export function exampleRunConfig(name: PresetName): RunConfig {
  return {
    data: { kind: 'preset', name, seed: 42, features: 2, featureScale: 1 },
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

export async function startExampleRun(name: PresetName): Promise<void> {
  const data = useDataStore();
  const live = useLiveRunStore();
  const nav = useNavStore();
  await data.selectPreset(name, { seed: 42, features: 2, featureScale: 1 });
  nav.go('live');
  nameStartedRun(await live.start(exampleRunConfig(name)));
}
