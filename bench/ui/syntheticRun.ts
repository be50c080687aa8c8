/**
 * Writes a synthetic finished run into a runs folder with the service's own pieces: the run store
 * makes the folder, config.json and status.json (running, then completed) and keeps index.json;
 * the event log appends the recorders' batches to events.ndjson; the trace writer leaves
 * trace.json.gz, as a finished run does. So `kde-profiler serve` and the app open it like any
 * other run. There is no report: nothing was measured.
 *
 * `cachedSyntheticRun` keeps one such folder per event count in the system's temp folder, so a
 * benchmark pays for a million events once.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_RUN_CONFIG, type RunConfig, type StrategyName } from '../../src/shared/config';
import { RUN_FILES } from '../../src/main/engineProtocol';
import { newRunId, RunStore, type RunStatusFile } from '../../src/main/service';
import { EventLog } from '../../src/main/service/store/eventLog';
import { writeTraceFromEvents } from '../../src/main/service/store/runFiles';
import { DEFAULT_SHAPE, replayTrace, type TraceShape } from './syntheticTrace';

export interface SyntheticRunOptions extends Partial<Omit<TraceShape, 'targetEvents' | 'strategies'>> {
  runsDir: string;
  /** records to aim for (spans, counters, instants, thread names) */
  events: number;
  strategies?: readonly StrategyName[];
  /** also write trace.json.gz (default true; it takes a while for a million events) */
  chromeTrace?: boolean;
}

export interface SyntheticRun {
  runsDir: string;
  runId: string;
  /** records written to events.ndjson */
  events: number;
  durationUs: number;
}

export const MIN_EVENTS = 1_000;
export const MAX_EVENTS = 20_000_000;
/** bump when the trace's shape changes, so cached runs of the old shape are not reused */
const GENERATOR_VERSION = 1;
const CACHE_MARKER = 'synthetic-run.json';

export function checkEventCount(events: number, what = 'events'): number {
  if (!Number.isInteger(events) || events < MIN_EVENTS || events > MAX_EVENTS) {
    throw new Error(`${what}: expected an integer in [${MIN_EVENTS}, ${MAX_EVENTS}], got ${String(events)}`);
  }
  return events;
}

export async function writeSyntheticRun(options: SyntheticRunOptions): Promise<SyntheticRun> {
  const events = checkEventCount(options.events);
  const strategies = options.strategies ?? (DEFAULT_SHAPE.strategies as StrategyName[]);
  const shape: TraceShape = { ...DEFAULT_SHAPE, ...options, strategies, targetEvents: events };
  const store = new RunStore(resolve(options.runsDir));
  await store.init();
  const runId = newRunId();
  const label = `synthetic timeline: ${events.toLocaleString('en-US')} events, ${shape.electrodes} electrodes, ${shape.workers} workers`;
  const config: RunConfig = {
    ...DEFAULT_RUN_CONFIG,
    data: { kind: 'preset', name: 'realistic', seed: shape.seed, features: 4, featureScale: 1 },
    strategies: [...strategies],
    workers: shape.workers,
    warmup: 1,
    repeats: Math.max(1, shape.passes - 1),
    label,
  };
  const status: RunStatusFile = {
    id: runId, status: 'running', createdAt: new Date().toISOString(), dataset: 'preset:realistic', backend: 'wasm',
    strategies: [...strategies], headline: [], label, ownerPid: process.pid, ownerStore: store.storeId,
  };
  store.markActive(runId, true);
  try {
    await store.create(status, config);
    const eventsPath = store.file(runId, RUN_FILES.events);
    const log = new EventLog(eventsPath);
    const durationUs = await replayTrace(shape, (records) => log.append(records));
    await log.close();
    if (options.chromeTrace !== false) {
      await writeTraceFromEvents(eventsPath, store.file(runId, RUN_FILES.trace), { runId, status: 'completed' }, true);
    }
    await store.writeStatus({ ...status, status: 'completed', finishedAt: new Date().toISOString() });
    return { runsDir: store.runsDir, runId, events: log.count, durationUs };
  } finally {
    store.markActive(runId, false);
  }
}

/** the cached runs folder for `events`, under the system's temp folder */
export function syntheticRunsDir(events: number): string {
  return join(tmpdir(), `kde-ui-bench-runs-v${GENERATOR_VERSION}-${events}`);
}

/** A runs folder holding one synthetic run of `events` records: the cached one, or a new one. */
export async function cachedSyntheticRun(events: number, log: (line: string) => void = () => undefined): Promise<SyntheticRun & { cached: boolean }> {
  const runsDir = syntheticRunsDir(checkEventCount(events));
  const marker = join(runsDir, CACHE_MARKER);
  if (existsSync(marker)) {
    const run = JSON.parse(await readFile(marker, 'utf8')) as SyntheticRun;
    if (existsSync(join(runsDir, run.runId, RUN_FILES.events))) {
      log(`reusing the synthetic run ${run.runId} (${run.events.toLocaleString('en-US')} events) in ${runsDir}`);
      return { ...run, runsDir, cached: true };
    }
  }
  // a folder without its marker is a generation that did not finish
  await rm(runsDir, { recursive: true, force: true });
  log(`generating a synthetic run of ${events.toLocaleString('en-US')} events in ${runsDir} …`);
  const started = performance.now();
  const run = await writeSyntheticRun({ runsDir, events });
  await writeFile(marker, JSON.stringify(run, null, 2) + '\n');
  log(`generated ${run.events.toLocaleString('en-US')} events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { ...run, cached: false };
}
