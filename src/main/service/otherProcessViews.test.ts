/**
 * A run another process runs in the runs folder (a CLI run beside the app or a serve), as this
 * service's pages see it: the progress the terminal shows, at once, for a page that opens the run
 * late (and once it was cancelled, how far it got), and the log lines it printed; the counter history with each series' process;
 * and its timeline answered from memory, without the store looking at the folder again on every
 * call while pages watch it four times a second.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunConfig } from '../../shared/config';
import type { ProgressInfo, RunEvent, RunLogLine, TraceRecord } from '../../shared/events';
import { PROGRESS_FILE } from './liveFolder';
import { createProfilerService, type ProfilerService } from './profilerService';
import { RunStore } from './store';
import { newRunId } from './store/runIds';

const config: RunConfig = {
  data: { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 }, backend: 'wasm',
  strategies: ['reference'], repeats: 1, warmup: 0, local: false, saveLikelihood: false, trace: true,
};
const progress: ProgressInfo = { fraction: 0.45, label: 'logsumexp · repeat 13', elapsedMs: 41_000, etaMs: 51_000, basis: 'time', count: { done: 30, total: 35, unit: 'steps' } };
const log: RunLogLine[] = [{ seq: 0, level: 'info', message: 'loaded preset:tiny' }, { seq: 1, level: 'warn', message: 'the machine is busy' }];
const records: TraceRecord[] = [
  { ph: 'C', proc: 'service', name: 'memory (MB)', ts: 0, args: { rss: 40 } },
  { ph: 'C', proc: 'engine', name: 'memory (MB)', ts: 10, args: { rss: 100 } },
  { ph: 'X', proc: 'engine', tid: 1, name: 'load-data', cat: 'engine', ts: 0, dur: 500 },
  { ph: 'C', proc: 'engine', name: 'memory (MB)', ts: 600, args: { rss: 120 } },
];

let dir: string;
let service: ProfilerService;
let runId: string;

/** the files another process keeps for a run it runs: status (naming it as the owner), config, events, progress */
async function otherProcessRun(status: 'running' | 'cancelled'): Promise<void> {
  const folder = join(dir, runId);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'config.json'), JSON.stringify(config));
  await writeFile(join(folder, 'events.ndjson'), `${JSON.stringify(records)}\n`);
  await writeFile(join(folder, PROGRESS_FILE), JSON.stringify({ type: 'progress', runId, progress, log }));
  await writeFile(join(folder, 'status.json'), JSON.stringify({
    id: runId, status, createdAt: new Date().toISOString(), dataset: 'preset:tiny', backend: 'wasm', strategies: ['reference'], headline: [],
    ...(status === 'running' ? { ownerPid: process.pid, ownerStore: 'another process' } : { finishedAt: new Date().toISOString() }),
  }));
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-other-views-'));
  runId = newRunId();
  service = createProfilerService({ runsDir: dir, otherProcessRuns: { pollIntervalMs: 20 } });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

/** a page subscribed to every run, as the app's and web mode's pages are: the service follows other processes' runs for it */
function watching(): () => void {
  return service.subscribe('*', () => undefined);
}

/** once the service follows the run (its next look at the folder), the run's history comes from memory, by process */
async function followed(): Promise<void> {
  const byProcess = async () => (await service.getCounters(runId)).map((s) => [s.proc, s.name, s.points.length]);
  await vi.waitFor(async () => expect(await byProcess()).toEqual([['service', 'memory (MB)', 1], ['engine', 'memory (MB)', 2]]), { timeout: 10_000, interval: 20 });
}

describe('a run another process runs, seen by this service\'s pages', () => {
  it('gives a page that opens it the progress its terminal shows, at once', async () => {
    await otherProcessRun('running');
    const detail = await service.getRun(runId);
    expect(detail.entry.status).toBe('running');
    expect(detail.progress).toEqual(progress);
    // and the log lines its terminal printed so far
    expect(detail.log).toEqual(log);
  });

  it('tells a watching page the log lines the run adds, each once', async () => {
    const heard: RunEvent[] = [];
    const stop = service.subscribe('*', (e) => heard.push(e));
    try {
      await otherProcessRun('running');
      const messages = () => heard.flatMap((e) => (e.type === 'log' ? [`${e.seq} ${e.message}`] : []));
      await vi.waitFor(() => expect(messages()).toEqual(['0 loaded preset:tiny', '1 the machine is busy']), { timeout: 10_000, interval: 20 });
      const more = [...log, { seq: 2, level: 'info', message: 'repeat 2/3' } as const];
      await writeFile(join(dir, runId, PROGRESS_FILE), JSON.stringify({ type: 'progress', runId, progress, log: more }));
      await vi.waitFor(() => expect(messages()).toEqual(['0 loaded preset:tiny', '1 the machine is busy', '2 repeat 2/3']), { timeout: 10_000, interval: 20 });
    } finally {
      stop();
    }
  });

  it('answers its counter history with the process of each series, for a page joining late to continue', async () => {
    const stop = watching();
    try {
      await otherProcessRun('running');
      await followed();
    } finally {
      stop();
    }
  });

  it('answers its timeline from memory without the store looking at the folder on each call', async () => {
    const stop = watching();
    try {
      await otherProcessRun('running');
      await followed();
      const looked = vi.spyOn(RunStore.prototype, 'status');
      for (let i = 0; i < 8; i++) expect((await service.getTimeline(runId, { startUs: 0, endUs: 1e6, widthPx: 800 })).spans.map((x) => x.name)).toEqual(['load-data']);
      await service.getCounters(runId);
      await service.findSpan(runId, { text: 'load', fromUs: 0, direction: 'next' });
      expect(looked).not.toHaveBeenCalled();
    } finally {
      stop();
    }
  });

  it('says how far a run got that ended without completing: the last progress it saved', async () => {
    await otherProcessRun('cancelled');
    const detail = await service.getRun(runId);
    expect(detail.entry.status).toBe('cancelled');
    expect(detail.progress).toEqual(progress);
    expect(detail.log?.map((l) => l.message)).toEqual(['loaded preset:tiny', 'the machine is busy']);
  });
});
