/**
 * Fault: a finished run's files damaged in ways that once took the service down. An events.ndjson
 * with a 700 MB line of NUL bytes (what a power loss leaves) made getTimeline throw an uncaught
 * "Invalid string length"; a report.json nested 100 000 deep made getRun's answer throw a
 * RangeError when it was serialized. Now the long line is skipped as damaged and the timeline
 * answers with the rest, the deep report is refused with a plain error, and the service goes on
 * answering.
 */
import { appendFile, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProfilerService, type ProfilerService } from '../../src/main/service';
import { presetRun, scratchFolder } from './faultKit';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let service: ProfilerService;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-damaged-run-');
  service = createProfilerService({ runsDir: join(folder.path, 'runs') });
});
afterEach(async () => {
  await service.close();
  await folder.remove();
});

async function finishedRun(): Promise<string> {
  const { runId } = await service.startRun(presetRun('tiny'));
  expect((await service.whenFinished(runId)).status).toBe('completed');
  return runId;
}

describe('fault: a finished run\'s files are damaged', () => {
  it('skips a 700 MB line of NUL bytes in events.ndjson, and the timeline answers', async () => {
    const runId = await finishedRun();
    const events = join(service.runsDir, runId, 'events.ndjson');
    const before = await service.getTimeline(runId, { startUs: 0, endUs: 1e12, widthPx: 800 });
    // a sparse run of NUL bytes, then one more good line's worth of text
    const { size } = await stat(events);
    await truncate(events, size + 700 * 2 ** 20);
    await appendFile(events, '\n');
    const fresh = createProfilerService({ runsDir: service.runsDir });
    try {
      const view = await fresh.getTimeline(runId, { startUs: 0, endUs: 1e12, widthPx: 800 });
      expect(view.lanes.map((l) => l.id)).toEqual(before.lanes.map((l) => l.id));
      expect((await fresh.listRuns()).some((r) => r.id === runId)).toBe(true);
    } finally {
      await fresh.close();
    }
  }, 120_000);

  it('refuses a report.json nested 100 000 deep with a plain error, and keeps answering', async () => {
    const runId = await finishedRun();
    await writeFile(join(service.runsDir, runId, 'report.json'), '['.repeat(100_000) + ']'.repeat(100_000));
    const fresh = createProfilerService({ runsDir: service.runsDir });
    try {
      const said = await fresh.getRun(runId).then((d) => `answered ${JSON.stringify(d).length}`, (e: Error) => `refused: ${e.message}`);
      expect(said).toMatch(/^refused: .*report\.json nests deeper than 64 levels/);
      expect((await fresh.listRuns()).find((r) => r.id === runId)?.status).toBe('completed');
    } finally {
      await fresh.close();
    }
  }, 120_000);
});
