/**
 * The service behind every front door (Electron IPC, WebSocket, CLI): runs and their store, the
 * event fan-out, and the views the UI asks for. It knows nothing of electron; the engine process
 * comes from an injected spawn function (fork under Node by default).
 */
import { access } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type {
  Comparison, CounterSeries, DataInspection, ExportResult, LikelihoodView, MemoryEstimate, PresetInfo, ProfilerApi,
  RunDetail, RunIndexEntry, SystemInfo, TimelineView,
} from '../../shared/api';
import { parseRunConfig, type RunConfig } from '../../shared/config';
import { AppError } from '../../shared/errors';
import type { RunEvent } from '../../shared/events';
import { compareReports } from '../analysis';
import { inspectData, PRESET_INFO } from '../data';
import { readNdjsonRecords } from '../export';
import { forkEngine, type SpawnEngine } from '../host';
import { ActiveRun } from './activeRun';
import { counterSeries } from './counterSeries';
import { exportSourceAsNpz, saveRecipeFor, scanDataView, withScale } from './dataMapping';
import { EventBus } from './eventBus';
import { estimateRunMemory, systemInfo } from './engineInfo';
import { likelihoodView } from './likelihoodView';
import { exportBytes } from './runExport';
import { ALL_RUNS, assertRunId } from '../../shared/runIds';
import { newRunId } from './runIds';
import { entryOf, RUN_FILES, RunStore, type RunStatusFile } from './runStore';
import { TimelineCache } from './timelineCache';
import { queryTimeline } from './timelineQuery';
import { exportFormat, finiteNumber, likelihoodName, listener, timelineRequest } from './validate';

export interface ProfilerServiceOptions {
  runsDir: string;
  spawnEngine?: SpawnEngine;
  /** reads another process's RSS (tests inject one); default: /proc or ps */
  readRssBytes?: (pid: number) => Promise<number | null>;
}

export interface ProfilerService extends ProfilerApi {
  readonly runsDir: string;
  /** resolves with the final status once the run has finished, failed or been cancelled */
  whenFinished(runId: string): Promise<RunIndexEntry>;
  /** cancels every queued and running run (app quit, CLI interrupt) */
  close(): Promise<void>;
}

function datasetLabel(config: RunConfig): string {
  return config.data.kind === 'preset' ? `preset:${config.data.name}` : basename(config.data.path);
}

export function createProfilerService(options: ProfilerServiceOptions): ProfilerService {
  const store = new RunStore(resolve(options.runsDir));
  const ready = store.init();
  const spawn = options.spawnEngine ?? (() => forkEngine());
  const bus = new EventBus();
  const active = new Map<string, ActiveRun>();
  const timelines = new TimelineCache((id) => active.get(id)?.openSpans() ?? []);
  const queue: ActiveRun[] = [];
  let current: ActiveRun | undefined;

  // one run at a time: concurrent runs would share cores and distort each other's timings
  const pump = () => {
    if (current) return;
    const next = queue.shift();
    if (!next) return;
    current = next;
    void next.start();
    void next.finished.then(() => {
      active.delete(next.id);
      if (current === next) current = undefined;
      pump();
    });
  };

  const runId = async (v: unknown): Promise<string> => {
    const id = assertRunId(v);
    await ready;
    return id;
  };

  const service: ProfilerService = {
    runsDir: store.runsDir,

    getInfo: async (): Promise<SystemInfo> => systemInfo(spawn),
    listPresets: async (): Promise<PresetInfo[]> => PRESET_INFO.map((p) => ({ ...p })),
    inspectData: async (source): Promise<DataInspection> => withScale(await inspectData(parseRunConfig({ data: source }).data)),
    estimateMemory: async (config): Promise<MemoryEstimate[]> => estimateRunMemory(parseRunConfig(config)),

    async startRun(raw) {
      const config = parseRunConfig(raw);
      if (config.data.kind === 'file') {
        const path = resolve(config.data.path);
        try {
          await access(path);
        } catch {
          throw new AppError('NOT_FOUND', `data file ${config.data.path} does not exist or cannot be read: check the path.`, { file: config.data.path });
        }
        config.data = { kind: 'file', path };
      }
      await ready;
      const id = newRunId();
      const status: RunStatusFile = {
        id, status: 'queued', createdAt: new Date().toISOString(), dataset: datasetLabel(config), backend: config.backend,
        strategies: [...config.strategies], headline: [], ownerPid: process.pid, ownerStore: store.storeId,
      };
      if (config.label !== undefined) status.label = config.label;
      await store.create(status, config);
      const run = new ActiveRun({ status, config, store, spawn, readRssBytes: options.readRssBytes, emit: (e) => bus.emit(e) });
      active.set(id, run);
      queue.push(run);
      bus.emit({ type: 'status', runId: id, status: 'queued' });
      pump();
      return { runId: id };
    },

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
      timelines.forget(id);
      await store.delete(id);
    },

    async getTimeline(v, request): Promise<TimelineView> {
      const id = await runId(v);
      const req = timelineRequest(request);
      await store.status(id);
      if (!(await store.exists(id, RUN_FILES.events))) {
        // queued, or traced off: nothing recorded yet is an empty timeline, not an error
        return { startUs: req.startUs, endUs: req.endUs, totalUs: 0, lanes: [], spans: [], instants: [], totalEvents: 0 };
      }
      const index = await timelines.get(id, store.file(id, RUN_FILES.events), active.get(id)?.recordCount);
      return queryTimeline(index, req);
    },

    async getCounters(v): Promise<CounterSeries[]> {
      const id = await runId(v);
      await store.status(id);
      if (!(await store.exists(id, RUN_FILES.events))) return [];
      return counterSeries((await readNdjsonRecords(store.file(id, RUN_FILES.events))).records);
    },

    async getLikelihood(v, strategy): Promise<LikelihoodView> {
      const id = await runId(v);
      const name = likelihoodName(strategy);
      await store.status(id);
      return likelihoodView(store.dir(id), id, name);
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
    exportDataAsNpz: (source, outPath) => exportSourceAsNpz(source, outPath),

    async close() {
      queue.splice(0, queue.length);
      await Promise.all([...active.values()].map((r) => r.cancel()));
    },
  };
  return service;
}
