/**
 * The desktop window's `npm run example` opens the app at #/live?example=NAME: the preset is loaded
 * and a run of every strategy starts at once. Once started, the address names the run
 * (#/live?run=<id>), so a reload keeps watching it. Web mode starts the example on the service
 * instead and opens the page on the run (`serve --example`), so a second visit watches the same run.
 */
import { PRESETS, type PresetName } from '../../../shared/config';
import { EXAMPLE_PRESET_OPTIONS, exampleRunConfig } from '../../../shared/exampleRun';
import { useDataStore, useLiveRunStore, useNavStore } from '../stores';
import { nameStartedRun } from './useRunRoute';

export function exampleFromHash(hash: string): PresetName | null {
  const query = hash.split('?')[1];
  if (query === undefined) return null;
  const name = new URLSearchParams(query).get('example');
  return name !== null && (PRESETS as readonly string[]).includes(name) ? (name as PresetName) : null;
}

export async function startExampleRun(name: PresetName): Promise<void> {
  const data = useDataStore();
  const live = useLiveRunStore();
  const nav = useNavStore();
  await data.selectPreset(name, { ...EXAMPLE_PRESET_OPTIONS });
  nav.go('live');
  nameStartedRun(await live.start(exampleRunConfig(name)));
}
