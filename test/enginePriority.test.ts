/**
 * A service that serves pages runs its engine below normal priority, every thread of it (on Linux
 * a nice value belongs to a thread), and the report says so; the command line's service leaves the
 * priority alone.
 */
import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunConfig } from '../src/shared/config';
import { BACKGROUND_ENGINE_NICENESS } from '../src/main/service/serviceCore';
import { createProfilerService, type ProfilerService } from '../src/main/service';
import { whenSpansRecorded } from '../src/main/service/timeline/liveSpans.testdata';

const config: RunConfig = {
  data: { kind: 'preset', name: 'medium', seed: 42, features: 2, featureScale: 1 }, backend: 'wasm',
  strategies: ['reference'], repeats: 2, warmup: 1, local: false, saveLikelihood: false, trace: true, workers: 2,
};

/** nice value of each thread of a process: field 19 of /proc/PID/task/TID/stat, counted after the command's closing parenthesis */
async function threadNiceness(pid: number): Promise<{ name: string; nice: number }[]> {
  const out: { name: string; nice: number }[] = [];
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => '');
    const name = (await readFile(`/proc/${pid}/task/${tid}/comm`, 'utf8').catch(() => '')).trim();
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.length > 16) out.push({ name, nice: Number(fields[16]) });
  }
  return out;
}

let dir: string | undefined;
let service: ProfilerService | undefined;
afterEach(async () => {
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** runs `config`, and while the engine computes (after its first cold call) reads its threads' nice values */
async function runWatchingThreads(servesPages: boolean) {
  dir = await mkdtemp(join(tmpdir(), 'kde-engine-priority-'));
  let enginePid: number | undefined;
  service = createProfilerService({ runsDir: dir, servesPages, readRssBytes: async (pid) => ((enginePid = pid), null) });
  const { runId } = await service.startRun(config);
  // the engine has recorded a cold call: it is computing, on every thread it will use
  await whenSpansRecorded(service, runId, 'cold');
  while (enginePid === undefined) await new Promise((r) => setTimeout(r, 10));
  const threads = await threadNiceness(enginePid);
  expect((await service.whenFinished(runId)).status).toBe('completed');
  return { threads, report: (await service.getRun(runId)).report! };
}

describe.runIf(process.platform === 'linux')('the engine\'s priority', () => {
  it('is lowered for every thread of the engine in a service that serves pages', async () => {
    const { threads, report } = await runWatchingThreads(true);
    const expected = Math.max(BACKGROUND_ENGINE_NICENESS, getPriority());
    expect(report.environment.engineNiceness).toBe(expected);
    // read once the first cold call has ended, which runs in a worker: the two workers were started
    // by then, so every thread here includes theirs, beside the engine's own and V8's helpers
    expect(report.workers).toBe(2);
    expect(threads.filter((t) => t.nice !== expected)).toEqual([]);
  }, 60_000);

  it('is left alone by a service that serves no pages', async () => {
    const { threads, report } = await runWatchingThreads(false);
    const inherited = getPriority();
    expect(report.environment.engineNiceness).toBe(inherited === 0 ? undefined : inherited);
    expect(threads.every((t) => t.nice === inherited)).toBe(true);
  }, 60_000);
});
