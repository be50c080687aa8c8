/**
 * The one place stores get their ProfilerApi from. main.ts installs the real one (from api/);
 * tests install a fake. Stores call useApi() inside actions, never at import time.
 */
import type { ProfilerApi } from '../../../shared/api';

let current: ProfilerApi | null = null;

export function installApi(api: ProfilerApi): void {
  current = api;
}

export function useApi(): ProfilerApi {
  if (current === null) throw new Error('ProfilerApi is not installed: main.ts must call installApi(getApi()) before mounting');
  return current;
}

/** for unit tests: a fake api, or null to forget it */
export function setApiForTests(api: ProfilerApi | null): void {
  current = api;
}
