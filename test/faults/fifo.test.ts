/**
 * Fault: a client names a FIFO (a named pipe nobody writes to) as its data file, many times at
 * once, while a run records. A read that opened the pipe would wait for a writer and hold one of
 * Node's four file threads each: here every call is refused within a second, and the live run,
 * which needs those threads for its event log, its status and its report, goes on to completion.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunConfig } from '../../src/shared/config';
import { makeFifo, releaseFifo } from '../../src/main/data/testing';
import { createProfilerService, type ProfilerService } from '../../src/main/service';
import { presetRun, scratchFolder } from './faultKit';
import { expectInvariants, notesFor } from './invariants';

/** more than the file threads Node has (UV_THREADPOOL_SIZE, 4 by default) */
const CONCURRENT_ASKS = 8;
const REFUSED_WITHIN_MS = 1000;

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let service: ProfilerService;
let fifo: string;
/** the same, named as an NWB file */
let nwbFifo: string;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-fifo-');
  service = createProfilerService({ runsDir: join(folder.path, 'runs') });
  fifo = join(folder.path, 'spikes.npz');
  nwbFifo = join(folder.path, 'session.nwb');
});
afterEach(async () => {
  releaseFifo(fifo);
  releaseFifo(nwbFifo);
  await service.close();
  await folder.remove();
});

/** how a call ended, and how long it took */
async function timed(call: () => Promise<unknown>): Promise<{ ms: number; outcome: unknown }> {
  const t0 = performance.now();
  const outcome = await call().then((v) => ({ answered: v }), (e: unknown) => ({ refused: e }));
  return { ms: performance.now() - t0, outcome };
}

describe('fault: a FIFO named as a data file', () => {
  it('is refused at once however often it is asked, and a live run goes on to completion', async (ctx) => {
    if (!makeFifo(fifo) || !makeFifo(nwbFifo)) return ctx.skip('no mkfifo on this system: named pipes cannot be made');
    const { runId } = await service.startRun(presetRun('tiny'));
    const onFifo: RunConfig = { ...presetRun('tiny'), data: { kind: 'file', path: fifo } };
    const asks = await Promise.all(Array.from({ length: CONCURRENT_ASKS }, (_, i) => timed(() => {
      switch (i % 4) {
        case 0: return service.inspectData({ kind: 'file', path: fifo });
        case 1: return service.startRun(onFifo);
        case 2: return service.estimateMemory(onFifo);
        default: return service.scanData([nwbFifo]);
      }
    })));
    for (const [i, ask] of asks.entries()) {
      expect(ask.ms, `ask ${i}`).toBeLessThan(REFUSED_WITHIN_MS);
      // inspectData answers with its findings; the others refuse
      const said = JSON.stringify(ask.outcome, (_k, v: unknown) => (v instanceof Error ? { message: v.message } : v));
      expect(said, `ask ${i}`).toMatch(/is a named pipe, not a file/);
    }

    expect((await service.whenFinished(runId)).status).toBe('completed');
    await expectInvariants(service, service.runsDir, { expected: { [runId]: 'completed' }, traced: [runId], notes: notesFor(ctx) });
  });

  it("scans an NWB file whose group links to a FIFO in another file without following the link, saying so", async (ctx) => {
    const linkedFifo = join(folder.path, 'elsewhere.h5');
    if (!makeFifo(linkedFifo)) return ctx.skip('no mkfifo on this system: named pipes cannot be made');
    try {
      const h5 = (await import('h5wasm/node')).default;
      await h5.ready;
      const path = join(folder.path, 'linked.nwb');
      const file = new h5.File(path, 'w');
      file.create_group('acquisition');
      (file.get('acquisition') as InstanceType<typeof h5.Group>).create_external_link(linkedFifo, '/data', 'spikes');
      file.close();
      const { ms, outcome } = await timed(() => service.scanData([path]));
      expect(ms).toBeLessThan(REFUSED_WITHIN_MS * 10);
      const view = (outcome as { answered?: { findings: { message: string }[] } }).answered;
      expect(view?.findings.map((f) => f.message).join('\n')).toMatch(/\/acquisition\/spikes: a link to .*elsewhere\.h5, another file, which is not followed/);
    } finally {
      releaseFifo(linkedFifo);
    }
  });
});
