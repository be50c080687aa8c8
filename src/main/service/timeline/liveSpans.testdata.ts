/**
 * Test helpers that follow a live run the way a page does: they hear its notices and ask the
 * service what its timeline holds, for the tests (and bench/service.ts) that wait until the engine
 * has recorded so many spans of a name before they cancel, kill or measure it.
 */
import { IN_PROGRESS_ARG, type ProfilerApi } from '../../../shared/api';

type LiveApi = Pick<ProfilerApi, 'findSpan' | 'subscribe'>;

/** past any span's start: a search 'previous' from here finds the last span to start */
const END_OF_TIME_US = 1e15;

/** How many spans of this name a live run's timeline holds complete (an open one is drawn, not yet recorded). */
export async function completeSpans(api: Pick<ProfilerApi, 'findSpan'>, runId: string, name: string): Promise<number> {
  const last = await api.findSpan(runId, { text: name, fromUs: END_OF_TIME_US, direction: 'previous' });
  // the engine is sequential: of the spans of one name, only the last to start can still be open
  return last.total - (last.match?.args?.[IN_PROGRESS_ARG] === true ? 1 : 0);
}

/**
 * Resolves once the run's timeline holds `atLeast` complete spans of this name, asked again
 * whenever a notice says the engine's spans changed (an engine with a span open says so at each).
 */
export function whenSpansRecorded(api: LiveApi, runId: string, name: string, atLeast = 1): Promise<void> {
  return new Promise((resolve, reject) => {
    let asking = false;
    const off = api.subscribe(runId, (e) => {
      if (e.type !== 'timeline' || asking || !e.changed.some((c) => c.lane.process === 'engine')) return;
      asking = true;
      completeSpans(api, runId, name).then((n) => {
        asking = false;
        if (n < atLeast) return;
        off();
        resolve();
      }, (err: unknown) => {
        off();
        reject(err instanceof Error ? err : new Error(String(err)));
      });
    });
  });
}
