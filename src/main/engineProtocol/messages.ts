/**
 * The wire protocol between the service (host side) and the engine process. Messages travel by
 * structured clone (`serialization: 'advanced'` under Node, utilityProcess under Electron), so
 * typed arrays survive, but big arrays never travel here: likelihoods go to files in the run folder.
 */
import type { PosteriorParameters } from '../../shared/posteriorParameters';
import type { BackendAvailability } from '../../shared/api';
import type { PosteriorMethod, PosteriorModel, RunConfig } from '../../shared/config';
import type { DatasetSummary } from '../../shared/dataset';
import type { SerializedError } from '../../shared/errors';
import type { ProgressInfo, TraceRecord } from '../../shared/events';
import type { AgreementMatrix, BackendInfo, PosteriorReport, Report, ShardInfo, StrategyResult } from '../../shared/report';
import type { Calibration } from '../../shared/roofline';
import type { OpenSpan } from './openSpans';
import type { RecordingProjection } from '../../shared/projection';

/** A decode run (kde-profiler decode) instead of a profiling run: fit once, decode the grid in windows of rows. */
export interface DecodeRequest {
  /** output rows per window, at least 2 */
  rowsPerChunk: number;
  /** the state-space posterior after the likelihood; absent: the decode ends at the likelihood */
  posterior?: { model: PosteriorModel; method: PosteriorMethod; parameters?: PosteriorParameters };
}

export interface StartMessage {
  type: 'start';
  runId: string;
  runDir: string;
  config: RunConfig;
  /** `process.hrtime.bigint()` of the service at run start, decimal string (bigint is not cloneable everywhere) */
  originNs: string;
  /** present for a decode run; the profiling loop otherwise */
  decode?: DecodeRequest;
  /** the nice value the engine lowers itself to before it computes (enginePriority.ts); absent: left alone */
  niceness?: number;
}

export interface CancelMessage {
  type: 'cancel';
}

/** asks a fresh engine process what it can compute on, then it exits (no run) */
export interface ProbeMessage {
  type: 'probe';
}

export type HostToEngine = StartMessage | CancelMessage | ProbeMessage;

export interface ProbeResult {
  backends: BackendAvailability[];
  tfjsVersion: string;
}

/** Where a strategy's measured windows lie on the run clock, so the service can attach its own RSS samples. */
export interface StrategyWindow {
  strategy: string;
  startUs: number;
  endUs: number;
}

/** Everything the engine measured; the service adds identity, environment, RSS and findings. */
export interface EngineOutcome {
  dataset: DatasetSummary;
  backend: BackendInfo;
  strategies: StrategyResult[];
  agreementMatrix?: AgreementMatrix;
  local?: NonNullable<Report['local']>;
  notApplicable: string[];
  windows: StrategyWindow[];
  /** what the backend reached at the start (or from the per-machine cache): the roofline's ceilings */
  calibration?: Calibration;
  /** engine workers the electrodes were spread over (1: the engine process's own thread) */
  workers?: number;
  /** whether float32 matmuls could run as TF32 on an NVIDIA GPU ('off': NVIDIA_TF32_OVERRIDE=0) */
  tf32?: 'off' | 'allowed';
  /** the nice value the engine ran at, when not 0 (a service that serves pages lowers it) */
  niceness?: number;
  /** set when the run stopped early on a cancel request */
  cancelled?: boolean;
  /** set when the run computed one shard of the electrodes (`--shard I/N`) */
  shard?: ShardInfo;
  /** hash of the whole dataset's inputs and likelihood parameters, taken before any shard split */
  fingerprint?: string;
  /** a decode's state-space posterior, when it asked for one (the posteriors are files in the run folder) */
  posterior?: PosteriorReport;
  /** a decode of part of a recording: the whole recording's time and peak memory at this decode's rates */
  projection?: RecordingProjection;
}

/**
 * How often a running engine says it is alive ('heartbeat'), whatever it is computing: a host that
 * hears nothing from it for much longer than this (no heartbeat, no progress) takes it for hung.
 */
export const HEARTBEAT_INTERVAL_MS = 2000;

export type EngineToHost =
  /** the engine process is alive and its event loop turns (sent every HEARTBEAT_INTERVAL_MS during a run) */
  | { type: 'heartbeat' }
  | { type: 'trace'; records: TraceRecord[] }
  | { type: 'progress'; progress: ProgressInfo }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  /** the engine's spans open now, whenever that changed and a trace batch went out (live timeline only) */
  | { type: 'open-spans'; spans: OpenSpan[] }
  | { type: 'result'; outcome: EngineOutcome }
  /** what the run measured so far, after each strategy: kept by the host so a run that fails or is cancelled keeps it */
  | { type: 'partial'; outcome: EngineOutcome }
  /** the run could not proceed at all (bad data, no backend): the run fails with this error */
  | { type: 'error'; error: SerializedError }
  | { type: 'cancelled' }
  | { type: 'probe-result'; probe: ProbeResult };

const ENGINE_TYPES = new Set(['heartbeat', 'trace', 'progress', 'log', 'open-spans', 'result', 'partial', 'error', 'cancelled', 'probe-result']);

/** A message from the engine process is trusted code, but a crash mid-send or a stray print must not throw. */
export function isEngineMessage(raw: unknown): raw is EngineToHost {
  return typeof raw === 'object' && raw !== null && ENGINE_TYPES.has((raw as { type?: unknown }).type as string);
}

export function isHostMessage(raw: unknown): raw is HostToEngine {
  if (typeof raw !== 'object' || raw === null) return false;
  const t = (raw as { type?: unknown }).type;
  return t === 'start' || t === 'cancel' || t === 'probe';
}
