/**
 * The service's own speed, which unit tests do not time: a timeline query over a million events at
 * the widest view, taking over a lock file whose owner is dead, and how soon a cancel of a running
 * run lands (a real engine process on the `medium` preset). Prints the median of several runs of
 * each beside the budget the service promises.
 *
 *   node --import tsx bench/service.ts [--repeats 7] [--cancels 3]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunConfig } from '../src/shared/config';
import { buildTimelineIndex, createProfilerService, queryTimeline, type ProfilerService } from '../src/main/service';
// the lock is the store's own, not part of the service's surface
import { withFileLock } from '../src/main/service/store';
import { whenSpansRecorded } from '../src/main/service/timeline/liveSpans.testdata';
import { nestedTrace } from '../src/main/service/timeline/testing';
import { median, printColumns } from './table';

const { values: args } = parseArgs({
  options: {
    repeats: { type: 'string', default: '7' },
    cancels: { type: 'string', default: '3' },
  },
});
const repeats = Math.max(3, Number(args.repeats));
const cancels = Math.max(1, Number(args.cancels));

/** what the service promises: the widest view answers while a person waits, a crash never blocks the folder, a cancel lands within about a second */
const BUDGET_MS = { query: 2000, takeover: 1000, cancel: 1500 };
/** a pid beyond any pid_max: certainly not running */
const DEAD_PID = 2 ** 30;

async function timed(body: () => unknown): Promise<number> {
  const t0 = performance.now();
  await body();
  return performance.now() - t0;
}

async function timeQueries(): Promise<number[]> {
  const index = buildTimelineIndex(nestedTrace(333_333));
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) times.push(await timed(() => queryTimeline(index, { startUs: 0, endUs: 3_333_330, widthPx: 20_000 })));
  return times;
}

async function timeTakeovers(): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-lock-'));
  const lock = join(dir, 'index.json.lock');
  const times: number[] = [];
  try {
    for (let i = 0; i < repeats; i++) {
      await writeFile(lock, `${DEAD_PID}\n`);
      times.push(await timed(() => withFileLock(lock, async () => undefined)));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return times;
}

/** resolves once the engine has recorded a cold call (it is past start-up and computing) */
function engineBusy(service: ProfilerService, runId: string): Promise<void> {
  return whenSpansRecorded(service, runId, 'cold');
}

async function timeCancels(): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-cancel-'));
  const service = createProfilerService({ runsDir: dir });
  const config: RunConfig = {
    data: { kind: 'preset', name: 'medium', seed: 42, features: 2, featureScale: 1 }, backend: 'wasm',
    strategies: ['reference', 'logsumexp', 'chunked'], repeats: 5, warmup: 1, local: false, saveLikelihood: false, trace: true,
  };
  const times: number[] = [];
  try {
    for (let i = 0; i < cancels; i++) {
      const { runId } = await service.startRun(config);
      await engineBusy(service, runId);
      times.push(await timed(() => service.cancelRun(runId)));
      const entry = await service.whenFinished(runId);
      if (entry.status !== 'cancelled') throw new Error(`run ${runId} ended ${entry.status}, not cancelled`);
    }
  } finally {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  }
  return times;
}

const rows: string[][] = [];
const row = (what: string, times: number[], budgetMs: number) => {
  const m = median(times);
  rows.push([what, String(times.length), m.toFixed(1), Math.max(...times).toFixed(1), String(budgetMs), m <= budgetMs ? 'yes' : 'NO']);
};
row('timeline query, 1 000 001 events, 20 000 px', await timeQueries(), BUDGET_MS.query);
row('lock takeover, dead owner', await timeTakeovers(), BUDGET_MS.takeover);
row('cancel of a running run (medium)', await timeCancels(), BUDGET_MS.cancel);
printColumns('service timings', ['what', 'runs', 'median (ms)', 'max (ms)', 'budget (ms)', 'within'], rows);
