/**
 * What every run in the engine process is made of, whichever loop it runs (the profiling loop of
 * engineRun.ts, the windowed decode of decodeRun.ts): the recorder whose batches stream out with
 * the spans open now, the probe every span goes through, the memory sampler, throttled progress,
 * the run's AbortController, and the one way a run ends: a result, "cancelled", or an error.
 *
 * Loading is also where a run learns what it computes: the whole dataset's fingerprint, then, for
 * a shard (`--shard I/N`), its share of the electrodes. Both go back with the outcome, whichever
 * loop ran, so every shard of one run says which run it belongs to.
 */
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import type { Dataset } from '../../../shared/dataset';
import { serializeError } from '../../../shared/errors';
import type { ProgressInfo, TraceRecord } from '../../../shared/events';
import type { BackendInfo, ShardInfo } from '../../../shared/report';
import type { Calibration } from '../../../shared/roofline';
import { datasetFingerprint, SHARD_CLOCK_INSTANT, SHARD_CPU_INSTANT, shardOf } from '../../data';
import { isCancellation } from '../../engine/model';
import { MemorySampler, Recorder } from '../../recorder';
import type { EngineOutcome, EngineToHost, StartMessage } from '../../engineProtocol';
import type { DatasetLoadOptions, EngineDeps, WorkerDeps } from './engineDeps';
import { SpanCollector } from '../measurement';
import { currentNiceness } from './enginePriority';
import { applyTf32Setting, type Tf32Setting } from './tf32';
import { runWorkers, workerCount } from '../pool';
import { WatchedProbe } from './watchedProbe';

export interface EngineRun {
  cancel(): void;
  /** resolves after the last message (result, error or cancelled) has been handed to `send` */
  done: Promise<void>;
}

/** The run's progress, given the engine's fraction of the current step and its label. */
export type ProgressSource = (within: number, detail: string) => ProgressInfo;

export interface RunInputs {
  /** what this run computes: the whole dataset, or a shard's electrodes of it */
  dataset: Dataset;
  /** hash of the whole dataset's inputs and likelihood parameters (before any shard split) */
  fingerprint: string;
  /** set when the run computes one shard of the electrodes */
  shard?: ShardInfo;
  backend: BackendInfo;
  /** time spent loading the dataset (backend start-up not included) */
  loadMs: number;
  /** the engine process's memory sampler, started once the backend was known */
  memory: MemorySampler;
  /** the backend's ceilings for the roofline, cached per machine and backend in the runs folder */
  calibration: Calibration;
  /** what fits and predicts: a pool of engine workers when the run has more than one, else this thread */
  deps: EngineDeps;
  /** engine workers the electrodes are spread over (1: this thread) */
  workers: number;
  /** whether float32 matmuls may run as TF32 on NVIDIA GPUs (tensorflow backend) */
  tf32: Tf32Setting;
  /** the nice value the engine ran at (a service that serves pages lowers it; so may `nice` on the command line) */
  niceness: number;
}

const PROGRESS_INTERVAL_MS = 100;

/** what the outcome says about the data a run computed, whichever loop built it */
interface RunIdentity {
  fingerprint?: string;
  shard?: ShardInfo;
}

export class RunSession {
  readonly spans = new SpanCollector();
  readonly probe: WatchedProbe;
  private readonly rec: Recorder;
  private readonly controller = new AbortController();
  private memorySampler: MemorySampler | undefined;
  private workers: WorkerDeps | undefined;
  private within = 0;
  private detail = '';
  private lastProgressMs = 0;
  private sentOpenKey = '';
  private readonly identity: RunIdentity = {};

  constructor(
    private readonly start: StartMessage,
    private readonly deps: EngineDeps,
    private readonly send: (message: EngineToHost) => void,
    private readonly progressOf: ProgressSource,
  ) {
    this.rec = new Recorder({
      proc: 'engine',
      originNs: start.originNs,
      disabled: !start.config.trace,
      laneName: 'engine',
      onBatch: (records) => this.onBatch(records),
      onProgress: (fraction, label) => {
        this.within = fraction;
        this.detail = label;
        this.sendProgress(false);
      },
    });
    // every span the loop and the engine open goes through the probe: memory samples at span ends, open spans for the live view
    this.probe = new WatchedProbe(this.rec, { onSpanEnd: () => this.memorySampler?.sampleIfDue() });
  }

  /** aborted when the service asks the run to stop; handed to the engine with every call */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  cancel(): void {
    this.controller.abort();
  }

  /** Sends progress now, at a step boundary: the engine's fraction of the step is reset (to 0 unless given). */
  emitProgress(within = 0, detail = ''): void {
    this.within = within;
    this.detail = detail;
    this.sendProgress(true);
  }

  /** What the run has measured so far (the run's identity added), for the host to keep if the run ends early. */
  sendPartial(outcome: EngineOutcome): void {
    this.send({ type: 'partial', outcome: { ...outcome, ...this.identity } });
  }

  /** Records made outside the recorder (an external engine's lane) join the run's trace here. */
  sendRecords(records: TraceRecord[]): void {
    if (records.length > 0) this.onBatch(records);
  }

  log(level: 'info' | 'warn' | 'error', message: string): void {
    this.send({ type: 'log', level, message });
  }

  /** load-data and backend-init, each in its span; memory sampling starts once the backend is known. */
  async loadInputs(options: DatasetLoadOptions = {}): Promise<RunInputs> {
    if (this.start.config.shard) this.markWallClock();
    const t0 = performance.now();
    const whole = await this.probe.span('load-data', () => this.deps.loadDataset(this.start.config.data, options));
    const loadMs = performance.now() - t0;
    const { dataset, fingerprint, shard } = await this.identify(whole);
    const tf32 = applyTf32Setting(this.start.config.allowTf32);
    const backend = await this.probe.span('backend-init', () => this.startBackend(dataset));
    const calibration = await this.probe.span('calibrate', () =>
      this.deps.calibrate(backend, dirname(this.start.runDir), (message) => this.log('warn', message)));
    // checked before they start: more workers than electrodes or cores only multiply the threads and the memory
    const { workers: wanted, clamped } = runWorkers(this.start.config.workers, backend, dataset.electrodes.length);
    if (clamped) this.log('warn', clamped);
    const deps = wanted > 1 && this.deps.startWorkers
      ? await this.probe.span('workers-start', () => this.startWorkers(wanted, backend), { workers: wanted })
      : this.deps;
    const workers = deps === this.deps ? 1 : wanted;
    const memory = new MemorySampler({ sink: this.rec, tensorMemory: () => deps.engineMemory(), gpu: backend.isGpu });
    this.memorySampler = memory;
    memory.start();
    return { dataset, fingerprint, ...(shard ? { shard } : {}), backend, loadMs, memory, calibration, deps, workers, tf32, niceness: currentNiceness() };
  }

  /** The backend asked for; `auto` measured on this run's data where the engine can (a GPU only where it was faster). */
  private startBackend(dataset: Dataset): Promise<BackendInfo> {
    const { config } = this.start;
    if (config.backend !== 'auto' || !this.deps.initBackendFor) return this.deps.initBackend(config.backend);
    const cpuWorkers = workerCount(config.workers, { name: 'wasm' });
    return this.deps.initBackendFor(dataset, { cpuWorkers, blockSize: this.deps.strategyOptionsFor(dataset, config).blockSize ?? dataset.params.blockSize });
  }

  /** The whole dataset's fingerprint, then the shard's share of it when the run is a shard. */
  private async identify(whole: Dataset): Promise<{ dataset: Dataset; fingerprint: string; shard?: ShardInfo }> {
    const fingerprint = await this.probe.span('fingerprint', () => datasetFingerprint(whole));
    this.identity.fingerprint = fingerprint;
    const spec = this.start.config.shard;
    if (!spec) return { dataset: whole, fingerprint };
    const { dataset, info } = shardOf(whole, spec);
    this.identity.shard = info;
    this.log('info', `shard ${info.index}/${info.count} (${info.by}): electrodes ${info.electrodes.join(', ')} of ${whole.electrodes.length}`);
    return { dataset, fingerprint, shard: info };
  }

  /**
   * The wall clock at one moment of the run clock: shards on different machines share no
   * monotonic clock, so the merge lines their traces up on this (NTP) time.
   */
  private markWallClock(): void {
    this.probe.instant(SHARD_CLOCK_INSTANT, { unixTimeMs: performance.timeOrigin + performance.now(), host: hostname() });
  }

  /** the engine process's CPU time so far (every thread, workers included), for the merge's total */
  private markCpuTime(): void {
    const cpu = process.cpuUsage();
    this.probe.instant(SHARD_CPU_INSTANT, { userMs: cpu.user / 1000, systemMs: cpu.system / 1000 });
  }

  /** Starts the workers on the backend this thread resolved; a cancel stops them where they are. */
  private async startWorkers(workers: number, backend: BackendInfo): Promise<EngineDeps> {
    const started = await this.deps.startWorkers!({
      workers, backend: backend.name, originNs: this.start.originNs, trace: this.start.config.trace,
      onRecords: (records) => this.onBatch(records),
    });
    this.workers = started;
    this.signal.addEventListener('abort', () => void started.stop(), { once: true });
    return started.deps;
  }

  /** Runs the body under the run's span and sends how it ended; resolves once that message is out. */
  async run(body: (session: RunSession) => Promise<EngineOutcome>): Promise<void> {
    try {
      const outcome = await this.probe.span('run', () => body(this), { runId: this.start.runId });
      if (this.start.config.shard) this.markCpuTime();
      await this.stopRecording();
      this.send({ type: 'result', outcome: { ...outcome, ...this.identity } });
    } catch (e) {
      await this.stopRecording();
      // whatever a cancelled run throws on its way out is the cancel, not a failure
      if (this.signal.aborted || isCancellation(e)) this.send({ type: 'cancelled' });
      else this.send({ type: 'error', error: serializeError((await this.deps.explainFailure?.(e)) ?? e) });
    }
  }

  private async stopRecording(): Promise<void> {
    this.memorySampler?.stop();
    await this.workers?.stop();
    this.rec.flush();
  }

  private onBatch(records: TraceRecord[]): void {
    this.spans.observe(records);
    this.send({ type: 'trace', records });
    if (this.start.config.trace) this.sendOpenSpans();
  }

  /** after each batch, the open spans if they changed: the live timeline draws them from the newest event */
  private sendOpenSpans(): void {
    // the recorder may flush before the probe around it exists
    const open = this.probe?.openSpans() ?? [];
    const key = open.map((o) => `${o.name}@${o.startUs}`).join('|');
    if (key === this.sentOpenKey) return;
    this.sentOpenKey = key;
    this.send({ type: 'open-spans', spans: open });
  }

  private sendProgress(force: boolean): void {
    const now = performance.now();
    if (!force && now - this.lastProgressMs < PROGRESS_INTERVAL_MS) return;
    this.lastProgressMs = now;
    this.send({ type: 'progress', progress: this.progressOf(this.within, this.detail) });
  }
}

/** Starts a run: the body measures, the session records and reports. */
export function startRunSession(
  start: StartMessage,
  deps: EngineDeps,
  send: (message: EngineToHost) => void,
  progressOf: ProgressSource,
  body: (session: RunSession) => Promise<EngineOutcome>,
): EngineRun {
  const session = new RunSession(start, deps, send, progressOf);
  return { cancel: () => session.cancel(), done: session.run(body) };
}
