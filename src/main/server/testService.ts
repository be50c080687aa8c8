/** A ProfilerApi stand-in for the server's own tests: answers fast, records subscriptions. */
import type { ProfilerApi } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { RunEvent } from '../../shared/events';

export interface StubService extends ProfilerApi {
  listeners: Map<string, Set<(event: RunEvent) => void>>;
  emit(event: RunEvent): void;
}

export function stubService(): StubService {
  const listeners = new Map<string, Set<(event: RunEvent) => void>>();
  const notFound = async (): Promise<never> => {
    throw new AppError('NOT_FOUND', 'no such run', { key: 'runId' });
  };
  return {
    listeners,
    emit(event) {
      for (const key of [event.runId, '*']) for (const l of listeners.get(key) ?? []) l(event);
    },
    getInfo: async () => ({ version: '9.9.9' }) as never,
    listPresets: async () => [],
    inspectData: notFound,
    estimateMemory: async () => ({ strategies: [], posterior: [] }),
    startRun: async () => ({ runId: '20250101-000000-abcdef' }),
    cancelRun: async () => undefined,
    listRuns: async () => [],
    getRun: notFound,
    deleteRun: notFound,
    getTimeline: notFound,
    getCounters: async () => [],
    findSpan: notFound,
    summarizeArea: notFound,
    getLikelihood: notFound,
    getPosterior: notFound,
    getPosteriorMap: notFound,
    compareRuns: notFound,
    exportRun: notFound,
    pickDataFile: async () => null,
    scanData: notFound,
    saveRecipe: notFound,
    exportDataAsNpz: notFound,
    listSweeps: async () => [],
    getSweep: notFound,
    subscribe(runId, listener) {
      let set = listeners.get(runId);
      if (!set) listeners.set(runId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(runId);
      };
    },
  };
}
