/**
 * The service behind every front door (Electron IPC, WebSocket, CLI): runs and their store, the
 * event fan-out, and the views the UI asks for. It knows nothing of electron; the engine process
 * comes from an injected spawn function (fork under Node by default).
 *
 * This file is the facade: it checks each call's arguments and hands the work to the rooms. The
 * run queue (queue/) runs the runs; the views of a recording and the calls about the machine and
 * the data are groups of calls in calls/, a run request's checks are in checks/.
 */
import type { Comparison, ExportResult, ListedRun, ProfilerApi, RunDetail, RunIndexEntry, RunPage, RunPageRequest } from '../../shared/api';
import type { RunConfig } from '../../shared/config';
import { AppError } from '../../shared/errors';
import type { ProgressInfo, RunEvent } from '../../shared/events';
import { ALL_RUNS, assertRunId } from '../../shared/runIds';
import { compareReports } from '../analysis';
import { warmReportValidator } from '../export';
import type { DecodeRequest } from '../engineProtocol';
import type { SpawnEngine } from '../host';
import type { RunsFolderState } from '../../shared/serverState';
import { dataCalls, runViews } from './calls';
import { decodeConfig, decodeRequestOf, withReadableData } from './checks';
import { assertRunsCanStart, PROGRESS_FILE, readLiveStateFile, readProgressFile, runsFolderState, type OtherProcessRunsOptions } from './liveFolder';
import { createServiceCore, type ServiceCore } from './serviceCore';
import { bundleAlignment, entryOf, exportBytes, perfettoBundleBytes, type ExportBytes, type OpenEventStream } from './store';
import { exportFormat, finiteNumber, listener, runPageRequest } from './validate';

export interface ProfilerServiceOptions {
  runsDir: string;
  spawnEngine?: SpawnEngine;
  /** reads another process's RSS (tests inject one); default: /proc or ps */
  readRssBytes?: (pid: number) => Promise<number | null>;
  /** opens a run's events.ndjson for appending (tests inject one that fails like a full disk); default: the file */
  openEventStream?: OpenEventStream;
  /**
   * A run fails ("engine stopped responding") when its engine sends no heartbeat or progress (and,
   * on Linux, uses no CPU) for this long; default KDE_PROFILER_ENGINE_TIMEOUT_S seconds, else 120 s.
   */
  engineTimeoutMs?: number;
  /** the caller is the command line: its runs may start `cmd:` engines and name the engines' Python */
  commandEngines?: boolean;
  /**
   * The service serves pages (the app, web mode): what a run's end needs (the report's validator)
   * is prepared once at start, before any page watches, instead of stalling the pages at the end
   * of the first run. A command-line call that may never end a run skips it.
   */
  servesPages?: boolean;
  /**
   * The nice value each run's engine lowers itself to (engineProcess/session/enginePriority.ts); default:
   * BACKGROUND_ENGINE_NICENESS when the service serves pages, else the priority is left alone.
   */
  engineNiceness?: number;
  /**
   * Follow the runs other processes run in the runs folder (a CLI run beside a serve), so that this
   * service's subscribers hear their status, progress and timeline (liveFolder/otherProcessRuns.ts);
   * default: when the service serves pages. Tests shorten the polling with an object.
   */
  otherProcessRuns?: boolean | Partial<OtherProcessRunsOptions>;
}

export interface ProfilerService extends ProfilerApi {
  readonly runsDir: string;
  listRunPage(request?: RunPageRequest): Promise<RunPage>;
  /**
   * A decode run (kde-profiler decode): one strategy, fitted once, the grid decoded in windows of
   * rows into likelihood/<strategy>.npy and decode.json in the run's folder. Queued, recorded and
   * listed like any run. Not part of ProfilerApi: the CLI holds the service itself.
   */
  startDecode(config: unknown, decode: DecodeRequest): Promise<{ runId: string }>;
  /**
   * Several runs' traces as one Perfetto bundle (a ZIP that ui.perfetto.dev opens as one timeline,
   * each run a machine of its own), lined up by `align` (BUNDLE_ALIGNMENTS; default 'start'). Not
   * part of ProfilerApi: the CLI holds the service itself.
   */
  exportPerfettoBundle(runIds: readonly string[], align?: string): Promise<ExportBytes>;
  /**
   * Whether runs can start in the runs folder, and if not why (a read-only archive is browsed, never
   * run in); getInfo's answer carries the same as `runsFolder` (shared/serverState.ts).
   */
  runsFolder(): Promise<RunsFolderState>;
  /** resolves with the final status once the run has finished, failed or been cancelled */
  whenFinished(runId: string): Promise<RunIndexEntry>;
  /** cancels every queued and running run (app quit, CLI interrupt) */
  close(): Promise<void>;
}

type RunControl = Pick<ProfilerService, 'startRun' | 'startDecode' | 'cancelRun' | 'whenFinished' | 'subscribe' | 'runsFolder' | 'close'>;
type RecordedRuns = Pick<ProfilerService, 'listRuns' | 'listRunPage' | 'getRun' | 'deleteRun' | 'compareRuns' | 'exportRun' | 'exportPerfettoBundle'>;

/** The calls that start runs, follow them and stop them. */
function runControl({ store, ready, bus, queue, runId, progress, otherRuns }: ServiceCore, commandsAllowed: boolean): RunControl {
  const enqueue = async (config: RunConfig, decode?: DecodeRequest): Promise<{ runId: string }> => {
    await ready;
    // said before anything is queued: a read-only folder is refused with what to do, not a failed mkdir
    await assertRunsCanStart(store.runsDir, ready);
    return { runId: await queue.enqueue(config, decode) };
  };
  return {
    startRun: async (raw) => enqueue(await withReadableData(raw, commandsAllowed)),
    startDecode: async (raw, decode) => enqueue(decodeConfig(await withReadableData(raw, commandsAllowed), decode), decodeRequestOf(decode)),

    async cancelRun(v) {
      const id = await runId(v);
      if (!(await queue.cancel(id))) await store.status(id);
    },

    async whenFinished(v) {
      const id = await runId(v);
      const run = queue.get(id);
      return entryOf(run ? await run.finished : await store.status(id));
    },

    subscribe(v, fn) {
      const target = v === ALL_RUNS ? ALL_RUNS : assertRunId(v);
      return bus.subscribe(target, listener(fn) as (e: RunEvent) => void);
    },

    runsFolder: () => runsFolderState(store.runsDir, ready),

    async close() {
      await queue.cancelAll();
      await otherRuns?.stop();
      // a progress write left half-done would leave its temporary file in the run's folder
      await progress.settled();
      // the runs folder's first index write may still be under way when a caller stops at once (a refused path)
      await ready.catch(() => undefined);
    },
  };
}

/** A run's latest progress: this service's run's in memory, another process's (or an ended run's last) from its folder. */
async function latestProgress({ store, queue }: ServiceCore, id: string, status: string): Promise<ProgressInfo | undefined> {
  if (status === 'completed' || status === 'queued') return undefined;
  return queue.get(id)?.progress ?? (await readProgressFile(store.file(id, PROGRESS_FILE), id))?.progress;
}

/**
 * What a page opening a run late adds to its record: the latest progress (a run not completed)
 * and the log kept so far, this service's run's from memory, any other's from its folder.
 */
async function liveStateOf({ store, queue }: ServiceCore, id: string, status: string): Promise<Pick<RunDetail, 'progress' | 'log'>> {
  if (status === 'queued') return {};
  const active = queue.get(id);
  const saved = active ? { progress: undefined, log: active.log } : await readLiveStateFile(store.file(id, PROGRESS_FILE), id).catch(() => undefined);
  const progress = status === 'completed' ? undefined : active?.progress ?? saved?.progress?.progress;
  const log = saved && saved.log.length > 0 ? [...saved.log] : undefined;
  return { ...(progress ? { progress } : {}), ...(log ? { log } : {}) };
}

const ENDED_EARLY: ReadonlySet<string> = new Set(['cancelled', 'failed']);

/**
 * A page's runs, each that ended early with the last progress it saved ("stopped at 16 %"): a few
 * small reads for a page, one after another, never one per run of the folder.
 */
async function withStops(core: ServiceCore, runs: readonly RunIndexEntry[]): Promise<ListedRun[]> {
  const listed: ListedRun[] = [];
  for (const r of runs) {
    // a progress file that cannot be read lists the run as the store lists it
    const stoppedAt = ENDED_EARLY.has(r.status) ? await latestProgress(core, r.id, r.status).catch(() => undefined) : undefined;
    listed.push(stoppedAt ? { ...r, stoppedAt } : r);
  }
  return listed;
}

/** The calls on recorded runs: list, open, compare, export, delete. */
function recordedRuns(core: ServiceCore): RecordedRuns {
  const { store, ready, queue, timelines, progress, runId } = core;
  const getRun = async (v: unknown): Promise<RunDetail> => {
    const id = await runId(v);
    const entry = entryOf(await store.status(id));
    const detail: RunDetail = { entry, config: await store.config(id), report: await store.report(id) };
    return { ...detail, ...(await liveStateOf(core, id, entry.status)) };
  };
  /** the store brought in line with the folder (and with final statuses saved late) before any listing */
  const refreshed = async (): Promise<void> => {
    await ready;
    await queue.saveUnsavedFinals();
    await store.refresh();
  };
  return {
    async listRuns() {
      await refreshed();
      return store.list();
    },

    async listRunPage(v) {
      const { offset, limit } = runPageRequest(v);
      await refreshed();
      const page = store.page(offset, limit);
      return { offset, total: page.total, runs: await withStops(core, page.runs) };
    },

    getRun,

    async deleteRun(v) {
      const id = await runId(v);
      await store.status(id);
      // a run still going is cancelled first, so its engine does not write into a deleted folder
      if (queue.get(id)) await queue.cancel(id);
      queue.forget(id);
      timelines.forget(id);
      // a progress write still going would put a file back into the folder being removed
      await progress.settled();
      await store.delete(id);
    },

    async compareRuns(va, vb, threshold): Promise<Comparison> {
      const a = await runId(va);
      const b = assertRunId(vb, 'runB');
      const thresholdPct = finiteNumber(threshold, 'thresholdPct', 0, 1e6);
      const [ea, eb] = [await getRun(a), await getRun(b)];
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

    async exportPerfettoBundle(ids, align) {
      const runIds: string[] = [];
      for (const v of ids) runIds.push(await runId(v));
      return perfettoBundleBytes(store, runIds, bundleAlignment(align), getRun);
    },
  };
}

export function createProfilerService(options: ProfilerServiceOptions): ProfilerService {
  const core = createServiceCore(options);
  if (options.servesPages) setImmediate(warmReportValidator);
  return { runsDir: core.store.runsDir, ...dataCalls(core), ...runControl(core, options.commandEngines === true), ...recordedRuns(core), ...runViews(core) };
}
