/**
 * One run while it executes: spawns the engine, appends every batch of records to events.ndjson and
 * its live timeline (which tells the pages), samples the engine's RSS at 20 Hz, keeps its log, and
 * when the engine is gone writes the report, the trace and the final status. A run whose events or
 * start cannot be recorded is stopped and ends failed, once its engine has exited. Its phase
 * (runPhase.ts) says where it is.
 */
import type { RunConfig } from '../../../shared/config';
import { AppError, serializeError, type SerializedError } from '../../../shared/errors';
import { MAX_KEPT_LOG_LINES, type LogLevel, type ProgressInfo, type RunEvent, type RunLogLine, type RunStatus, type TraceRecord } from '../../../shared/events';
import type { Report } from '../../../shared/report';
import { startEngine, type EngineEnd, type EngineHandle, type RssSampler, type SpawnEngine } from '../../host';
import type { DecodeRequest, EngineOutcome, OpenSpan, StartMessage } from '../../engineProtocol';
import { Recorder } from '../../recorder';
import { buildReport, headlineOf } from '../report';
import { EventLog, eventLogError, ownerStamp, type OpenEventStream, RUN_FILES, type RunStatusFile, type RunStore, writeProblemOf } from '../store';
import { LiveTimeline } from '../timeline';
import { sampleEngineRss, type EngineRss } from './engineRss';
import { writeRunEndFiles } from './runEndFiles';
import { engineTimeoutFromEnv, watchEngine } from './engineWatchdog';
import { engineStalledError, startNotRecordedError, unsavedFilesMessage } from './runEndMessages';
import { hasEngine, type RunPhase } from './runPhase';

export interface ActiveRunOptions {
  status: RunStatusFile;
  config: RunConfig;
  store: RunStore;
  spawn: SpawnEngine;
  /** a decode run (kde-profiler decode) instead of the profiling loop */
  decode?: DecodeRequest;
  emit(event: RunEvent): void;
  readRssBytes?: (pid: number) => Promise<number | null>;
  /** opens the run's events.ndjson for appending (tests inject a failing one); default: the file */
  openEventStream?: OpenEventStream;
  /** an engine silent (no heartbeat, no progress, on Linux no CPU used) this long fails the run; default engineWatchdog.ts */
  engineTimeoutMs?: number;
  /** the nice value the engine lowers itself to before it computes; absent: its priority is left alone */
  engineNiceness?: number;
}

export class ActiveRun {
  progress: ProgressInfo | undefined;
  readonly log: RunLogLine[] = []; // the newest lines, for a page that joins late
  private logged = 0;
  /** the run's trace in memory, for its timeline and counters while it records; none with tracing off */
  readonly timeline: LiveTimeline | undefined;
  readonly finished: Promise<RunStatusFile>;
  private status: RunStatusFile;
  private phase: RunPhase = { phase: 'queued' };
  private resolveFinished!: (s: RunStatusFile) => void;

  constructor(private readonly o: ActiveRunOptions) {
    this.status = o.status;
    this.timeline = o.config.trace ? new LiveTimeline(() => this.openSpans(), { notify: (change) => o.emit({ type: 'timeline', runId: this.id, ...change }), holdNotices: true }) : undefined;
    this.finished = new Promise((resolve) => {
      this.resolveFinished = resolve;
    });
    o.store.markActive(o.status.id, true);
  }

  get id(): string {
    return this.status.id;
  }

  /** events.ndjson holds every record the run made (no write failed), so its live timeline equals the file's */
  get recordedEverything(): boolean {
    if (this.phase.phase === 'ended') return this.phase.recordedEverything;
    return !hasEngine(this.phase) || this.phase.recordingFailure === undefined;
  }

  /** what the engine has begun and not ended yet, for the live timeline */
  openSpans(): OpenSpan[] {
    return this.engine()?.openSpans() ?? [];
  }

  /** One line of the run's log: kept (the newest MAX_KEPT_LOG_LINES) and told to the pages. */
  private logLine(level: LogLevel, message: string): void {
    const line: RunLogLine = { seq: this.logged++, level, message };
    this.log.push(line);
    if (this.log.length > MAX_KEPT_LOG_LINES) this.log.shift();
    this.o.emit({ type: 'log', runId: this.id, ...line });
  }

  /** Starts the engine; resolves `finished` whatever happens, and never rejects. */
  async start(): Promise<void> {
    if (this.phase.phase !== 'queued') return;
    this.phase = { phase: 'running', engineGone: false };
    try {
      await this.execute();
    } catch (e) {
      // finish() ignores a second ending: a run that already ended keeps its first status
      await this.finish('failed', serializeError(e), undefined);
    }
  }

  /** whether the final status is still waiting for a runs folder that could not take it (full, or not writable) */
  get finalStatusUnsaved(): boolean {
    return this.phase.phase === 'ended' && this.phase.unsavedFinal !== undefined;
  }

  /** Saves again a final status the runs folder refused (full, not writable), so other readers stop
   *  seeing the run as going. True once saved, or once it never can be (its folder is gone). */
  async saveFinalStatus(): Promise<boolean> {
    const ended = this.phase;
    if (ended.phase !== 'ended' || !ended.unsavedFinal) return true;
    try {
      await this.o.store.writeStatus(ended.unsavedFinal);
    } catch (e) {
      if (writeProblemOf(e) !== undefined) return false;
    }
    ended.unsavedFinal = undefined;
    return true;
  }

  /** Cancels the run (queued or running) and resolves with its final status. */
  async cancel(): Promise<RunStatusFile> {
    const phase = this.phase;
    if (phase.phase === 'queued') {
      void this.finish('cancelled', undefined, undefined);
    } else if (phase.phase === 'running') {
      this.phase = { ...phase, phase: 'cancelling' };
      void phase.engine?.cancel();
    } else if (phase.phase === 'ended') {
      // the engine has exited; its cancel is asked once at most and changes nothing now
      void phase.engine?.cancel();
    }
    return this.finished;
  }

  private engine(): EngineHandle | undefined {
    return this.phase.phase === 'queued' ? undefined : this.phase.engine;
  }

  /** The engine is spawned: the phase keeps its handle, and a cancel or recording failure that came first stops it. */
  private attachEngine(handle: EngineHandle): void {
    const phase = this.phase;
    if (!hasEngine(phase)) return;
    phase.engine = handle;
    void handle.done.then(() => {
      if (hasEngine(this.phase)) this.phase.engineGone = true;
    });
    if (phase.phase === 'cancelling' || phase.recordingFailure) void handle.cancel();
  }

  private async execute(): Promise<void> {
    const { config, store } = this.o;
    const id = this.status.id;
    const originNs = process.hrtime.bigint();
    const eventsPath = store.file(id, RUN_FILES.events);
    const log = new EventLog(eventsPath, { openStream: this.o.openEventStream, onFailure: (e) => this.stopRecording(e, eventsPath) });
    const onRecords = (records: TraceRecord[]) => {
      log.append(records);
      this.timeline?.append(records);
    };
    const rec = new Recorder({ proc: 'service', originNs, disabled: !config.trace, laneName: 'service', onBatch: onRecords });
    const start: StartMessage = { type: 'start', runId: id, runDir: store.dir(id), config, originNs: originNs.toString() };
    if (this.o.decode) start.decode = this.o.decode;
    if (this.o.engineNiceness !== undefined) start.niceness = this.o.engineNiceness;
    const watchdog = watchEngine({
      pid: () => this.engine()?.pid, timeoutMs: this.o.engineTimeoutMs ?? engineTimeoutFromEnv(), onStalled: (ms) => this.stall(ms),
    });
    const handle = startEngine(this.o.spawn, start, {
      onAlive: () => watchdog.alive(),
      onTrace: onRecords,
      onProgress: (progress) => {
        this.progress = progress;
        this.o.emit({ type: 'progress', runId: id, progress });
      },
      onLog: (level, message) => this.logLine(level, message),
    });
    this.attachEngine(handle);
    void handle.done.then(() => watchdog.stop());
    this.status = { ...this.status, status: 'running', ...ownerStamp(), ownerStore: store.storeId, enginePid: handle.pid };
    try {
      await store.writeStatus(this.status);
    } catch (e) {
      // the engine must not outlive its run: the queue starts the next run once this one ends
      await handle.cancel();
      rec.close();
      await log.close();
      throw startNotRecordedError(e, store.runsDir, store.dir(id));
    }
    this.o.emit({ type: 'status', runId: id, status: 'running' });
    this.timeline?.releaseNotices(); // a page hears of the timeline once it heard the run runs

    const rss: EngineRss | undefined = handle.pid === undefined ? undefined : sampleEngineRss({
      pid: handle.pid, trace: config.trace, nowUs: () => rec.nowUs(), onRecords, readRssBytes: this.o.readRssBytes,
    });
    const end = await rec.span('engine process', () => handle.done, { pid: handle.pid ?? -1 });
    rss?.stop();
    rec.close();
    await log.close();
    await this.conclude(end, rss?.sampler);
  }

  /** The run's events can no longer be written: stop the engine now (the cancel path, kill after a
   *  grace period) so the run ends failed within a second instead of after the benchmark. */
  private stopRecording(e: NodeJS.ErrnoException, eventsPath: string): void {
    const phase = this.phase;
    if (!hasEngine(phase) || phase.recordingFailure) return;
    phase.recordingFailure = eventLogError(e, this.o.store.runsDir, eventsPath);
    if (phase.engine && !phase.engineGone) void phase.engine.cancel();
  }

  /** The engine stopped responding: the run fails saying so and the engine is stopped (its kill lands
   *  even on a stopped process), so the queue moves on. What it recorded stays. */
  private stall(silentMs: number): void {
    const phase = this.phase;
    if (phase.phase !== 'running' || phase.engineGone || phase.stopFailure) return;
    phase.stopFailure = engineStalledError(silentMs, phase.engine?.pid);
    this.logLine('error', phase.stopFailure.message);
    void phase.engine?.cancel();
  }

  private async conclude(end: EngineEnd, rss: RssSampler | undefined): Promise<void> {
    const phase = this.phase;
    const stopFailure = hasEngine(phase) ? phase.recordingFailure ?? phase.stopFailure : undefined;
    if (stopFailure) {
      const error = stopFailure.toJSON();
      // the run fails for its disk either way; a report that cannot be assembled is not a second error
      const partial = end.outcome ? this.reportOf(end.outcome, rss, error) : undefined;
      return this.finish('failed', error, partial instanceof Error ? undefined : partial);
    }
    if (end.kind !== 'completed') {
      const error = end.kind === 'failed' ? end.error : undefined;
      // the strategies measured before the end stay in a report marked failed or cancelled
      const partial = end.outcome ? this.reportOf(end.outcome, rss, error, end.kind) : undefined;
      return this.finish(end.kind, error, partial instanceof Error ? undefined : partial);
    }
    const report = this.reportOf(end.outcome, rss);
    if (report instanceof Error) {
      return this.finish('failed', new AppError('INTERNAL', `could not assemble the report: ${serializeError(report).message}`).toJSON(), undefined);
    }
    return this.finish('completed', undefined, report);
  }

  /** The run's report from what the engine measured; with `error` or a cancel, a partial one. */
  private reportOf(
    outcome: EngineOutcome, rss: RssSampler | undefined, error?: SerializedError, ended: Report['status'] = error ? 'failed' : 'completed',
  ): Report | Error {
    try {
      return buildReport({
        runId: this.status.id,
        createdAt: this.status.createdAt,
        config: this.o.config,
        outcome,
        peakRssBetween: rss ? (a, b) => rss.peakBetween(a, b) : undefined,
        status: ended,
        error,
      });
    } catch (e) {
      return e instanceof Error ? e : new Error(String(e));
    }
  }

  /** Ends the run once: writes what it can (report, trace, status), tells the page, resolves `finished`.
   *  Never throws: a failing disk is one log line, and the final status stays in memory (listRuns,
   *  whenFinished) whatever reached the folder. */
  private async finish(status: RunStatus, error: SerializedError | undefined, report: Report | undefined): Promise<void> {
    const before = this.phase;
    if (before.phase === 'ended') return;
    const ended: RunPhase & { phase: 'ended' } = {
      phase: 'ended',
      engine: hasEngine(before) ? before.engine : undefined,
      recordedEverything: !hasEngine(before) || before.recordingFailure === undefined,
    };
    this.phase = ended;
    const { store } = this.o;
    const id = this.status.id;
    let unsaved: string[];
    try {
      unsaved = await writeRunEndFiles({ store, config: this.o.config, runId: id, status, report, log: (level, message) => this.logLine(level, message) });
    } catch (e) {
      unsaved = [`run files: ${serializeError(e).message}`];
    }
    const final: RunStatusFile = { ...this.status, status, finishedAt: new Date().toISOString() };
    if (error) final.error = error;
    if (report) {
      final.headline = headlineOf(report);
      final.backend = report.backend.name;
    }
    this.status = final;
    let statusSaved = true;
    try {
      await store.writeStatus(final);
    } catch (e) {
      statusSaved = false;
      // kept to be saved again (saveFinalStatus): until then the folder says the run is still going
      if (writeProblemOf(e) !== undefined) ended.unsavedFinal = final;
      unsaved.unshift(`status: ${serializeError(e).message}`);
    } finally {
      // one line however many files failed: on a full disk they all fail for the same reason
      if (unsaved.length > 0) this.logLine(statusSaved ? 'warn' : 'error', unsavedFilesMessage(store.dir(id), status, statusSaved, unsaved));
      store.markActive(id, false);
      this.timeline?.flushNotices();
      this.o.emit(error ? { type: 'status', runId: id, status, error } : { type: 'status', runId: id, status });
      this.resolveFinished(final);
    }
  }
}
