/**
 * A ProfilerApi for store tests: answers from sample data, records every call, and lets a test
 * push run events to whoever subscribed. Override any method by assigning to it.
 */
import {
  compareEntries, DEFAULT_RUN_PAGE, type Comparison, type ExportFormat, type ExportResult, type NpzExportOptions, type ProfilerApi, type RunMemoryEstimate,
  type RunPage, type RunPageRequest, type SpanAreaRequest, type SpanAreaSummary, type SpanSearchRequest, type SpanSearchResult, type TimelineRequest,
} from '../../../shared/api';
import { isDispatch, type DataSource, type RunConfig } from '../../../shared/config';
import { AppError } from '../../../shared/errors';
import type { RunEvent } from '../../../shared/events';
import type { NpzExport, NwbRecipe, NwbScanView, SavedRecipe } from '../../../shared/nwb';
import type { PosteriorRequest } from '../../../shared/posteriorView';
import type { PosteriorMapRequest } from '../../../shared/posteriorViewMap';
import { sweepSummaryOf, type SweepResult, type SweepSummary } from '../../../shared/sweep';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, vi } from 'vitest';
import { setApiForTests } from '../stores/apiAccess';
import * as sample from './sampleData';
import * as samplePosterior from './samplePosterior';
import * as samplePosterior2d from './samplePosterior2d';
import { ambiguousView } from './sampleNwb';
import { sampleSweep } from './sampleSweep';

export interface Call {
  method: string;
  args: unknown[];
}

export class FakeApi implements ProfilerApi {
  readonly calls: Call[] = [];
  private readonly listeners = new Set<{ runId: string; fn: (e: RunEvent) => void }>();
  nextRunId = 'run-1';
  /** paths exportDataAsNpz finds taken: it refuses them with EXISTS unless told to overwrite */
  readonly existingFiles = new Set<string>();
  /** the sweeps of the runs folder, as listSweeps and getSweep answer for them */
  sweeps: SweepResult[] = [sampleSweep()];

  private record(method: string, ...args: unknown[]): void {
    this.calls.push({ method, args });
  }

  callsOf(method: string): Call[] {
    return this.calls.filter((c) => c.method === method);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** delivers an event the way the transports do: to subscribers of its run and of '*' */
  emit(event: RunEvent): void {
    for (const l of [...this.listeners]) if (l.runId === '*' || l.runId === event.runId) l.fn(event);
  }

  getInfo = async () => (this.record('getInfo'), sample.systemInfo());
  listPresets = async () => (this.record('listPresets'), sample.presets());
  inspectData = async (source: DataSource) => {
    this.record('inspectData', source);
    return { ...sample.inspection(), source };
  };
  estimateMemory = async (config: RunConfig): Promise<RunMemoryEstimate> => {
    this.record('estimateMemory', config);
    const strategies = config.strategies.filter((s) => !isDispatch(s)).map((s, i) => ({ strategy: s, peakBytes: (i + 1) * 1024 * 1024, formula: `formula ${s}` }));
    const p = config.posterior;
    const posterior = (p?.methods ?? []).map((method, i) => ({ model: p!.model, method, rowsPerWindow: 2000, peakBytes: (i + 1) * 2 ** 24, formula: `formula ${method}` }));
    return { strategies, posterior };
  };
  startRun = async (config: RunConfig) => (this.record('startRun', config), { runId: this.nextRunId });
  cancelRun = async (runId: string) => void this.record('cancelRun', runId);
  listRuns = async () => (this.record('listRuns'), [sample.runEntry('run-1'), sample.runEntry('run-2', { status: 'failed' })]);
  /** a page of whatever listRuns answers (a test replaces that one), in the service's order */
  listRunPage = async (request: RunPageRequest = {}): Promise<RunPage> => {
    this.record('listRunPage', request);
    const all = [...(await this.listRuns())].sort(compareEntries);
    const offset = request.offset ?? 0;
    return { runs: all.slice(offset, offset + (request.limit ?? DEFAULT_RUN_PAGE)), offset, total: all.length };
  };
  getRun = async (runId: string) => (this.record('getRun', runId), sample.runDetail(runId));
  deleteRun = async (runId: string) => void this.record('deleteRun', runId);
  getTimeline = async (runId: string, request: TimelineRequest) => {
    this.record('getTimeline', runId, request);
    return sample.timelineView({ startUs: request.startUs, endUs: request.endUs });
  };
  getCounters = async (runId: string) => (this.record('getCounters', runId), sample.counterSeries());
  findSpan = async (runId: string, request: SpanSearchRequest): Promise<SpanSearchResult> => {
    this.record('findSpan', runId, request);
    const view = sample.timelineView();
    const matches = view.spans.filter((s) => s.name.toLowerCase().includes(request.text.toLowerCase())).sort((a, b) => a.startUs - b.startUs);
    const match = request.direction === 'next'
      ? matches.find((s) => s.startUs > request.fromUs)
      : [...matches].reverse().find((s) => s.startUs < request.fromUs);
    return { total: matches.length, match: match ?? null, ordinal: match ? matches.indexOf(match) + 1 : 0 };
  };
  summarizeArea = async (runId: string, request: SpanAreaRequest): Promise<SpanAreaSummary> => {
    this.record('summarizeArea', runId, request);
    return {
      startUs: request.startUs, endUs: request.endUs, lanes: request.lanes.length, spans: 2,
      rows: [{ name: 'decode', count: 2, totalUs: 300, selfUs: 200, meanUs: 150, maxUs: 200 }],
    };
  };
  getLikelihood = async (runId: string, strategy: string, request: Parameters<ProfilerApi['getLikelihood']>[2] = {}) => {
    this.record('getLikelihood', runId, strategy, request);
    return { ...sample.likelihoodView(request, runId), strategy };
  };
  getPosterior = async (runId: string, request: PosteriorRequest = {}) => {
    this.record('getPosterior', runId, request);
    return samplePosterior.posteriorView(request, runId);
  };
  getPosteriorMap = async (runId: string, request: PosteriorMapRequest) => {
    this.record('getPosteriorMap', runId, request);
    if (!runId.startsWith('field')) throw new AppError('BAD_ARGUMENT', `run ${runId} decoded 1-D positions: its posterior is drawn over time and position, not as a map.`, { key: 'runId' });
    if (request.row >= samplePosterior2d.FIELD_ROWS) throw new AppError('BAD_ARGUMENT', `request.row: must be below ${samplePosterior2d.FIELD_ROWS}`, { key: 'request.row' });
    return samplePosterior2d.fieldMap(request);
  };
  compareRuns = async (a: string, b: string, thresholdPct: number): Promise<Comparison> => {
    this.record('compareRuns', a, b, thresholdPct);
    return {
      a: sample.runEntry(a), b: sample.runEntry(b), thresholdPct,
      rows: [
        { metric: 'reference total median (ms)', a: 100, b: 130, deltaPct: 30, regression: true },
        { metric: 'compensated total median (ms)', a: 50, b: 49, deltaPct: -2, regression: false },
      ],
      regressed: true,
      verdict: 'regression: reference total median +30.0 %',
    };
  };
  exportRun = async (runId: string, format: ExportFormat): Promise<ExportResult> => {
    this.record('exportRun', runId, format);
    return { fileName: `${runId}.${format}`, mime: 'application/octet-stream', base64: btoa('hello') };
  };
  subscribe = (runId: string, fn: (e: RunEvent) => void): (() => void) => {
    this.record('subscribe', runId);
    const entry = { runId, fn };
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  };
  pickDataFile = async () => (this.record('pickDataFile'), null as string | null);
  scanData = async (paths: string[]): Promise<NwbScanView> => {
    this.record('scanData', paths);
    const view = ambiguousView();
    const first = view.scans[0]!;
    // the first file holds the candidates; further files (one per tetrode) are scanned empty
    const scans = paths.map((path, i) => (i === 0 ? { ...first, path } : { ...first, path, position: [], spikeTables: [], featureExtractions: [], intervals: [] }));
    return { ...view, scans };
  };
  saveRecipe = async (recipe: NwbRecipe, dataPath: string): Promise<SavedRecipe> => {
    this.record('saveRecipe', recipe, dataPath);
    return { recipePath: `${dataPath}.recipe.json` };
  };
  exportDataAsNpz = async (source: DataSource, outPath: string | null, options?: NpzExportOptions): Promise<NpzExport> => {
    this.record('exportDataAsNpz', source, outPath, options);
    const target = outPath ?? '/data/session.clusterless.npz';
    if (this.existingFiles.has(target) && options?.overwrite !== true) {
      throw new AppError('EXISTS', `${target} already exists: choose another name, or confirm that it may be replaced (overwrite).`, { file: target });
    }
    return { outPath: target, bytes: 2048, nElectrodes: 2, nEncodingSpikes: 300 };
  };
  listSweeps = async (): Promise<SweepSummary[]> => (this.record('listSweeps'), this.sweeps.map(sweepSummaryOf));
  getSweep = async (sweepId: string): Promise<SweepResult> => {
    this.record('getSweep', sweepId);
    const sweep = this.sweeps.find((s) => s.id === sweepId);
    if (!sweep) throw new AppError('NOT_FOUND', `no sweep ${sweepId} in /runs/sweeps: it was deleted, or belongs to another runs folder.`, { key: sweepId });
    return sweep;
  };
}

/**
 * Store tests' common set-up: a fresh Pinia and a FakeApi installed before each test (handed to
 * `use`), removed after it; optionally with fake timers for debounced and throttled stores.
 */
export function installFakeApiEachTest(use: (api: FakeApi) => void, options: { fakeTimers?: boolean } = {}): void {
  beforeEach(() => {
    if (options.fakeTimers) vi.useFakeTimers();
    setActivePinia(createPinia());
    const api = new FakeApi();
    setApiForTests(api);
    use(api);
  });
  afterEach(() => {
    if (options.fakeTimers) vi.useRealTimers();
    setApiForTests(null);
  });
}
