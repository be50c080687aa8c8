/**
 * The service behind every front door (Electron IPC, WebSocket, CLI): runs and their store, the
 * event fan-out, and the views the UI asks for. It knows nothing of electron; the engine process
 * comes from an injected spawn function (fork under Node by default).
 */
import { basename, resolve } from 'node:path';
import type {
  Comparison, CounterSeries, DataInspection, ExportResult, LikelihoodView, MemoryEstimate, PresetInfo, ProfilerApi,
  RunDetail, RunIndexEntry, SpanAreaSummary, SpanSearchResult, SystemInfo, TimelineView,
} from '../../shared/api';
import type { RunConfig } from '../../shared/config';
import { AppError } from '../../shared/errors';
import type { RunEvent } from '../../shared/events';
import { compareReports } from '../analysis';
import { PRESET_INFO, regularFileStats } from '../data';
import type { DecodeRequest } from '../engineProtocol';
import { forkEngine, type SpawnEngine } from '../host';
import { ActiveRun } from './queue';
import { DatasetSummaryCache, exportSourceAsNpz, saveRecipeFor, scanDataView, withScale } from './datasets';
import { EventBus } from './eventBus';
import { entryOf, exportBytes, newRunId, type OpenEventStream, RUN_FILES, type RunStatusFile, RunStore } from './store';
import { estimateRunMemory, SystemInfoCache } from './engineInfo';
import { likelihoodRequest, likelihoodView } from './likelihood';
import { ALL_RUNS, assertRunId } from '../../shared/runIds';
import { findSpan, queryTimeline, summarizeArea, TimelineCache, type TimelineIndex } from './timeline';
import {
  dataSource, exportFormat, finiteNumber, likelihoodName, listener, runConfig, spanAreaRequest, spanSearchRequest, timelineRequest,
} from './validate';
import { listSweeps, readSweep } from './sweeps';

/** runs waiting behind the current one: a script gone wrong cannot fill the runs folder with queued runs */
export const MAX_QUEUED_RUNS = 64;

export interface ProfilerServiceOptions {
  runsDir: string;
  spawnEngine?: SpawnEngine;
  /** reads another process's RSS (tests inject one); default: /proc or ps */
  readRssBytes?: (pid: number) => Promise<number | null>;
  /** opens a run's events.ndjson for appending (tests inject one that fails like a full disk); default: the file */
  openEventStream?: OpenEventStream;
}

export interface ProfilerService extends ProfilerApi {
  readonly runsDir: string;
  /**
   * A decode run (kde-profiler decode): one strategy, fitted once, the grid decoded in windows of
   * rows into likelihood/<strategy>.npy and decode.json in the run's folder. Queued, recorded and
   * listed like any run. Not part of ProfilerApi: the CLI holds the service itself.
   */
  startDecode(config: unknown, decode: DecodeRequest): Promise<{ runId: string }>;
  /** resolves with the final status once the run has finished, failed or been cancelled */
  whenFinished(runId: string): Promise<RunIndexEntry>;
  /** cancels every queued and running run (app quit, CLI interrupt) */
  close(): Promise<void>;
}

function datasetLabel(config: RunConfig): string {
  return config.data.kind === 'preset' ? `preset:${config.data.name}` : basename(config.data.path);
}

/** A run config whose data file is given by an absolute path and is a regular file (never a pipe the engine would wait on). */
async function withReadableData(raw: unknown): Promise<RunConfig> {
  const config = runConfig(raw);
  if (config.data.kind !== 'file') return config;
  const path = resolve(config.data.path);
  await regularFileStats(path);
  return { ...config, data: { kind: 'file', path } };
}

const MAX_ROWS_PER_CHUNK = 1_000_000_000;
/** parseRunConfig's limit on a label */
const MAX_LABEL_CHARS = 200;

/**
 * What a decode run is, said in its config: one strategy, one fit and one decode (no warm-ups or
 * repeats), the likelihood kept; and in its label, so the run list tells it from a profiling run.
 */
function decodeConfig(config: RunConfig, decode: DecodeRequest): RunConfig {
  if (config.strategies.length !== 1) {
    throw new AppError('BAD_ARGUMENT', `run config 'strategies': a decode run takes one strategy (or auto), got ${config.strategies.join(', ')}`, { key: 'strategies' });
  }
  const rows = decode.rowsPerChunk;
  if (!Number.isInteger(rows) || rows < 2 || rows > MAX_ROWS_PER_CHUNK) {
    throw new AppError('BAD_ARGUMENT', `decode 'rowsPerChunk': expected an integer in [2, ${MAX_ROWS_PER_CHUNK}], got ${JSON.stringify(rows)}`, { key: 'rowsPerChunk' });
  }
  const kind = `decode ${config.strategies[0]}, ${rows} rows per window`;
  const label = (config.label === undefined ? kind : `${kind}: ${config.label}`).slice(0, MAX_LABEL_CHARS);
  return { ...config, repeats: 1, warmup: 0, local: false, saveLikelihood: true, label };
}

export function createProfilerService(options: ProfilerServiceOptions): ProfilerService {
  const store = new RunStore(resolve(options.runsDir));
  const ready = store.init();
  // a runs folder that cannot be made fails the calls that need it, not the process (info needs none)
  ready.catch(() => undefined);
  const spawn = options.spawnEngine ?? (() => forkEngine());
  const bus = new EventBus();
  const active = new Map<string, ActiveRun>();
  const timelines = new TimelineCache();
  const systemInfo = new SystemInfoCache(spawn);

  /** the live run's index, or a finished run's read once; null before anything was recorded */
  async function timelineIndexOf(id: string): Promise<TimelineIndex | null> {
    await store.status(id);
    const live = active.get(id)?.timeline;
    if (live) return live.index();
    return recordedTimelineIndex(id);
  }

  async function recordedTimelineIndex(id: string): Promise<TimelineIndex | null> {
    if (!(await store.exists(id, RUN_FILES.events))) return null;
    return timelines.get(id, store.file(id, RUN_FILES.events));
  }
  const summaries = new DatasetSummaryCache();
  const queue: ActiveRun[] = [];
  let current: ActiveRun | undefined;
  /** ended runs whose final status a full or read-only runs folder refused: saved again when runs are listed */
  const unsavedFinals = new Map<string, ActiveRun>();

  const saveUnsavedFinals = async (): Promise<void> => {
    for (const [id, run] of unsavedFinals) if (await run.saveFinalStatus()) unsavedFinals.delete(id);
  };

  // one run at a time: concurrent runs would share cores and distort each other's timings
  const pump = () => {
    if (current) return;
    const next = queue.shift();
    if (!next) return;
    current = next;
    // start() never rejects; the catch is the last guard that a run cannot end the service
    next.start().catch((e: unknown) => console.error(`run ${next.id}: ${e instanceof Error ? e.message : String(e)}`));
    void next.finished.then(() => {
      if (next.timeline && next.recordedEverything) timelines.adopt(next.id, next.timeline.settled());
      active.delete(next.id);
      if (next.finalStatusUnsaved) unsavedFinals.set(next.id, next);
      if (current === next) current = undefined;
      pump();
    });
  };

  const enqueue = async (config: RunConfig, decode?: DecodeRequest): Promise<{ runId: string }> => {
    await ready;
    if (queue.length >= MAX_QUEUED_RUNS) {
      throw new AppError('BAD_ARGUMENT', `${queue.length} runs are already waiting to start; wait for some to finish, or cancel some from Runs, before queuing more.`);
    }
    const id = newRunId();
    const status: RunStatusFile = {
      id, status: 'queued', createdAt: new Date().toISOString(), dataset: datasetLabel(config), backend: config.backend,
      strategies: [...config.strategies], headline: [], ownerPid: process.pid, ownerStore: store.storeId,
    };
    if (config.label !== undefined) status.label = config.label;
    await store.create(status, config);
    const run = new ActiveRun({
      status, config, store, spawn, decode, readRssBytes: options.readRssBytes, openEventStream: options.openEventStream, emit: (e) => bus.emit(e),
    });
    active.set(id, run);
    queue.push(run);
    bus.emit({ type: 'status', runId: id, status: 'queued' });
    pump();
    return { runId: id };
  };

  const runId = async (v: unknown): Promise<string> => {
    const id = assertRunId(v);
    await ready;
    return id;
  };

  const service: ProfilerService = {
    runsDir: store.runsDir,

    getInfo: async (): Promise<SystemInfo> => systemInfo.get(),
    listPresets: async (): Promise<PresetInfo[]> => PRESET_INFO.map((p) => ({ ...p })),
    inspectData: async (source): Promise<DataInspection> => withScale(await summaries.inspect(dataSource(source))),
    estimateMemory: async (config): Promise<MemoryEstimate[]> => estimateRunMemory(runConfig(config), summaries),

    startRun: async (raw) => enqueue(await withReadableData(raw)),
    startDecode: async (raw, decode) => enqueue(decodeConfig(await withReadableData(raw), decode), { rowsPerChunk: decode.rowsPerChunk }),

    async cancelRun(v) {
      const id = await runId(v);
      const run = active.get(id);
      if (!run) {
        await store.status(id);
        return;
      }
      const i = queue.indexOf(run);
      if (i >= 0) queue.splice(i, 1);
      await run.cancel();
    },

    async whenFinished(v) {
      const id = await runId(v);
      const run = active.get(id);
      return entryOf(run ? await run.finished : await store.status(id));
    },

    async listRuns() {
      await ready;
      await saveUnsavedFinals();
      await store.refresh();
      return store.list();
    },

    async getRun(v): Promise<RunDetail> {
      const id = await runId(v);
      const entry = entryOf(await store.status(id));
      return { entry, config: await store.config(id), report: await store.report(id) };
    },

    async deleteRun(v) {
      const id = await runId(v);
      await store.status(id);
      if (active.has(id)) await service.cancelRun(id);
      unsavedFinals.delete(id);
      timelines.forget(id);
      await store.delete(id);
    },

    async getTimeline(v, request): Promise<TimelineView> {
      const id = await runId(v);
      const req = timelineRequest(request);
      await store.status(id);
      // every page watching a live run asks for much the same view: the run answers it once
      const live = active.get(id)?.timeline;
      if (live) return live.query(req);
      const index = await recordedTimelineIndex(id);
      // queued, or traced off: nothing recorded yet is an empty timeline, not an error
      if (!index) return { startUs: req.startUs, endUs: req.endUs, totalUs: 0, lanes: [], spans: [], instants: [], totalEvents: 0 };
      return queryTimeline(index, req);
    },

    async findSpan(v, request): Promise<SpanSearchResult> {
      const id = await runId(v);
      const req = spanSearchRequest(request);
      const index = await timelineIndexOf(id);
      return index ? findSpan(index, req) : { total: 0, match: null, ordinal: 0 };
    },

    async summarizeArea(v, request): Promise<SpanAreaSummary> {
      const id = await runId(v);
      const req = spanAreaRequest(request);
      const index = await timelineIndexOf(id);
      return index ? summarizeArea(index, req) : { startUs: req.startUs, endUs: req.endUs, lanes: 0, spans: 0, rows: [] };
    },

    async getCounters(v): Promise<CounterSeries[]> {
      const id = await runId(v);
      await store.status(id);
      const live = active.get(id)?.timeline;
      if (live) return live.counterSeries();
      if (!(await store.exists(id, RUN_FILES.events))) return [];
      return timelines.counters(id, store.file(id, RUN_FILES.events));
    },

    async getLikelihood(v, strategy, request = {}): Promise<LikelihoodView> {
      const id = await runId(v);
      const name = likelihoodName(strategy);
      const req = likelihoodRequest(request);
      await store.status(id);
      return likelihoodView(store.dir(id), id, name, req);
    },

    async compareRuns(va, vb, threshold): Promise<Comparison> {
      const a = await runId(va);
      const b = assertRunId(vb, 'runB');
      const thresholdPct = finiteNumber(threshold, 'thresholdPct', 0, 1e6);
      const [ea, eb] = [await service.getRun(a), await service.getRun(b)];
      for (const d of [ea, eb]) {
        if (!d.report) throw new AppError('NOT_FOUND', `run ${d.entry.id} has no report to compare (it is ${d.entry.status}).`, { key: d.entry.id });
      }
      return { a: ea.entry, b: eb.entry, ...compareReports(ea.report!, eb.report!, thresholdPct) };
    },

    async exportRun(v, format): Promise<ExportResult> {
      const id = await runId(v);
      const f = exportFormat(format);
      await store.status(id);
      const out = await exportBytes(store, id, f);
      return { fileName: out.fileName, mime: out.mime, base64: Buffer.from(out.bytes).toString('base64') };
    },

    subscribe(v, fn) {
      const target = v === ALL_RUNS ? ALL_RUNS : assertRunId(v);
      return bus.subscribe(target, listener(fn) as (e: RunEvent) => void);
    },

    pickDataFile: async () => null,
    scanData: (paths) => scanDataView(paths),
    saveRecipe: (recipe, dataPath) => saveRecipeFor(recipe, dataPath),
    exportDataAsNpz: (source, outPath, options) => exportSourceAsNpz(source, outPath, options),

    async listSweeps() {
      await ready;
      return listSweeps(store.runsDir);
    },
    async getSweep(id) {
      await ready;
      return readSweep(store.runsDir, id);
    },

    async close() {
      queue.splice(0, queue.length);
      await Promise.all([...active.values()].map((r) => r.cancel()));
      // the runs folder's first index write may still be under way when a caller stops at once (a refused path)
      await ready.catch(() => undefined);
    },
  };
  return service;
}
