/**
 * The service answers an active run's timeline and counters from memory while it records, and a
 * finished run's from its events file: the live view shows open spans, and the final view holds at
 * least every event a live view ever showed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunConfig } from '../../shared/config';
import { createProfilerService } from './profilerService';

describe('timeline of a run while it records', () => {
  it('comes from memory with open spans, then from the file once the run is done', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kde-live-'));
    const service = createProfilerService({ runsDir: dir });
    try {
      const config: RunConfig = {
        data: { kind: 'preset', name: 'small', seed: 42, features: 2, featureScale: 1 }, backend: 'wasm',
        strategies: ['reference', 'compensated'], repeats: 3, warmup: 1, local: false, saveLikelihood: false, trace: true,
      };
      const { runId } = await service.startRun(config);
      let finished = false;
      void service.whenFinished(runId).then(() => (finished = true));
      let viewsWithOpenSpans = 0;
      let viewsWithCounters = 0;
      let mostLiveEvents = 0;
      while (!finished) {
        const view = await service.getTimeline(runId, { startUs: 0, endUs: 1e9, widthPx: 1200 });
        mostLiveEvents = Math.max(mostLiveEvents, view.totalEvents);
        if (view.spans.some((s) => s.args?.inProgress === true)) viewsWithOpenSpans++;
        if ((await service.getCounters(runId)).length > 0) viewsWithCounters++;
        await new Promise((r) => setTimeout(r, 50));
      }
      const final = await service.getTimeline(runId, { startUs: 0, endUs: 1e9, widthPx: 1200 });
      expect(viewsWithOpenSpans).toBeGreaterThan(0);
      expect(viewsWithCounters).toBeGreaterThan(0);
      expect(final.totalEvents).toBeGreaterThanOrEqual(mostLiveEvents);
      expect(final.spans.some((s) => s.args?.inProgress === true)).toBe(false);
      expect(await service.getCounters(runId)).not.toHaveLength(0);
    } finally {
      await service.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
