/**
 * The run report (report.json): versioned, one schema (resources/report.schema.json) checked in
 * tests. Times in milliseconds, sizes in bytes, unless a name says otherwise.
 */
import type { BackendName, RunConfig, StrategyChoice, StrategyName } from './config';
import type { DatasetSummary } from './dataset';
import type { Calibration, StrategyRoofline } from './roofline';
import type { SerializedError } from './errors';
import type { ExternalEngineInfo, ExternalEngineName } from './externalEngines';
import type { StageTime } from './stageTime';

export const REPORT_SCHEMA_VERSION = 1;

import type { PosteriorReport } from './posteriorReport';
import type { RecordingProjection } from './projection';

export type { PosteriorReport } from './posteriorReport';

export interface TimingStats {
  /** the first (cold) call: kernel initialization, shader/program compilation included */
  firstMs: number;
  /** warm repeats after the warm-ups */
  samplesMs: number[];
  medianMs: number;
  meanMs: number;
  stdMs: number;
  minMs: number;
  maxMs: number;
  n: number;
  /** bootstrap 95 % confidence interval of the median (percentile method, seeded resampling) */
  ci95?: [number, number];
  /** indices into samplesMs of samples outside the Tukey fences (1.5 IQR beyond the quartiles) */
  outliers?: number[];
  /** why the repeats stopped: the asked count, the interval reached its target, the time budget or the repeat cap */
  stoppedBy?: 'repeats' | 'precision' | 'time' | 'max-repeats';
}

export type Verdict = 'faster' | 'slower' | 'no significant difference';

/** One strategy's total time against another's, with the interval of the ratio of medians. */
export interface StrategyComparison {
  against: MeasuredName;
  /** this strategy's median ÷ the other's (> 1: slower) */
  ratio: number;
  /** bootstrap 95 % interval of that ratio */
  ratioCi95: [number, number];
  /** from the interval: 'no significant difference' when it contains 1 */
  verdict: Verdict;
}

/** How well a strategy decodes, where the data carry the true position. */
export interface DecodingAccuracy {
  /** rows with a finite true position and likelihood */
  rows: number;
  /** median |argmax bin centre − true position|, in position units */
  medianAbsError: number;
  /** share of those rows within 10 position units */
  shareWithin10: number;
  /** the position units, when the data name them (e.g. cm) */
  units?: string;
}

/** The machine's load while the run measured (other processes compete for the same cores). */
export interface MachineLoad {
  /** 1-, 5- and 15-minute load averages at the start and at the end (empty where the OS has none) */
  loadAverageStart: number[];
  loadAverageEnd: number[];
  /** other processes' share of the machine's CPU time during the run (0–1), where it could be read */
  otherCpuShare?: number;
  /** true: the timings are likely disturbed; a finding says so */
  busy: boolean;
}

/** A shard of a run: electrodes computed here, to be merged with the other shards' runs. */
export interface ShardInfo {
  index: number;
  count: number;
  by: string;
  /** the electrodes this shard computed, by name */
  electrodes: string[];
}

export interface BackendInfo {
  name: BackendName;
  /** what actually computes: "CPU (WebAssembly SIMD)", "NVIDIA H100 (CUDA)", "llvmpipe (Vulkan, software)" */
  device: string;
  isGpu: boolean;
  /** a software or fallback adapter (e.g. lavapipe) */
  isFallback: boolean;
  /** why this backend: the user's choice or `auto`'s reasoning */
  reason: string;
  tfjsVersion: string;
  initMs: number;
  warnings: string[];
}

export interface Agreement {
  against: string;
  maxAbsDiff: number;
  meanAbsDiff: number;
  /** allclose at rtol 1e-4, atol 1e-4 */
  allclose: boolean;
  /** share of time rows whose argmax bin is the same */
  argmaxAgreement: number;
}

export type { CountedWork, ElectrodeStageTime, StageClock, StageGpuActivity, StageTime } from './stageTime';

export interface KernelStat {
  name: string;
  calls: number;
  totalMs: number;
  bytesAdded: number;
}

export interface MemoryStats {
  /** the strategy's formula (spec §7) for the largest electrode, float32 bytes */
  estimatedPeakBytes: number;
  /** peak bytes held in tensors while the strategy ran (tf.memory / tf.profile) */
  measuredPeakTensorBytes: number;
  peakRssBytes?: number;
  peakHeapBytes?: number;
  gpuBytes?: number;
}

export interface LeakCheck {
  tensorsBefore: number;
  tensorsAfter: number;
  /** tensors left behind by each repeat */
  perRepeat: number[];
  leaked: boolean;
}

export interface ElectrodeHealth {
  electrode: string;
  nEncodingSpikes: number;
  nDecodingSpikes: number;
  nonFinite: number;
  /** share of this electrode's spike terms on the LOG_EPS floor */
  floorShare: number;
  tooFewEncodingSpikes: boolean;
}

export interface NumericalHealth {
  nonFiniteOccupancy: number;
  nonFiniteGroundProcess: number;
  nonFiniteLikelihood: number;
  floorShare: number;
  electrodes: ElectrodeHealth[];
}

/** what a row of the results measured: one of the engine's strategies, or an external engine */
export type MeasuredName = StrategyChoice | ExternalEngineName;

/** `auto`'s probe: NLD's dispatch and series timed on a slice of the run's own data before the decode committed. */
export interface AutoProbeRecord {
  /** the electrode sliced (the one with the most encoding × decoding spikes) */
  electrode: string;
  /** its decoding spikes in the slice, and the rows they fall in */
  spikes: number;
  rows: number;
  /** each candidate's second call on the slice (the first builds what a windowed decode keeps) */
  candidates: { strategy: StrategyName; ms: number }[];
  /** the faster, which `auto` follows wherever series' bound holds */
  faster: 'series' | 'dispatch';
  summary: string;
  /** the probe's own time */
  probeMs: number;
}

export interface StrategyResult {
  strategy: MeasuredName;
  /** set for an external engine's row (docs/external-engines.md): what ran and how it ended */
  external?: ExternalEngineInfo;
  /** the strategy each electrode actually ran (differs from `strategy` only for auto) */
  resolved: StrategyName[];
  /** per electrode, why a dispatch (auto, nld-dispatch) chose what it chose: the predicted times compared or why a candidate was left out */
  resolvedReasons?: string[];
  /** `auto`'s probe, on auto's row where it ran one (as decode.json keeps it) */
  autoProbe?: AutoProbeRecord;
  status: 'ok' | 'failed';
  error?: SerializedError;
  encode?: TimingStats;
  decode?: TimingStats;
  total?: TimingStats;
  local?: TimingStats;
  stages: StageTime[];
  kernels: KernelStat[];
  memory?: MemoryStats;
  leak?: LeakCheck;
  agreementWithReference?: Agreement;
  agreementWithExpected?: Agreement;
  /** fit outputs against the file's expected values, max abs diff */
  fitAgreement?: { occupancy?: number; meanRates?: number; summedGroundProcessIntensity?: number };
  health?: NumericalHealth;
  /** each stage's FLOPs and bytes from the formulas, against its stage time and the calibrated ceilings */
  roofline?: StrategyRoofline;
  /** total time against the reference strategy in the same run */
  vsReference?: StrategyComparison;
  /** decoding accuracy against the true position, where the data carry it */
  accuracy?: DecodingAccuracy;
  /** the machine's load while this strategy measured (its share of the run's environment.load) */
  load?: MachineLoad;
  /** relative path inside the run folder */
  likelihoodFile?: string;
}

export interface AgreementMatrix {
  strategies: string[];
  maxAbsDiff: number[][];
  meanAbsDiff: number[][];
  allclose: boolean[][];
  argmaxAgreement: number[][];
}

export type Severity = 'info' | 'warning' | 'error';

export interface Finding {
  id: string;
  severity: Severity;
  message: string;
  strategy?: string;
  electrode?: string;
  value?: number;
}

export interface Recommendation {
  strategy: StrategyName;
  blockSize: number;
  encTileSize?: number;
  reason: string;
  /** the next-best strategy measured, against the recommended one (against = the recommended) */
  runnerUp?: StrategyComparison & { strategy: MeasuredName };
}

export interface Report {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  tool: { name: 'kde-profiler'; version: string };
  runId?: string;
  createdAt: string;
  config: RunConfig;
  dataset: DatasetSummary;
  /** how the dataset compares with the synthetic presets (encoding spikes, electrodes, bins), one sentence */
  datasetScale?: string;
  backend: BackendInfo;
  strategies: StrategyResult[];
  agreementMatrix?: AgreementMatrix;
  local?: {
    timing: TimingStats;
    agreementWithExpected?: Agreement;
    likelihoodFile?: string;
    /** local decode time ÷ the non-local decode time of `against` (labs report about 5 per electrode) */
    ratioToNonlocal?: { against: StrategyChoice; ratio: number };
  };
  findings: Finding[];
  recommendation?: Recommendation;
  /** engine workers the electrodes were spread over, each with its own backend (1: one thread) */
  workers?: number;
  environment: {
    node: string; platform: string; arch: string; cpus: number; totalMemoryBytes: number; calibration?: Calibration;
    /** whether float32 matmuls could run as TF32 on an NVIDIA GPU (the tensorflow backend) */
    tf32?: 'off' | 'allowed';
    /** the engine's nice value when not 0: below normal priority, so the pages of an app or web mode stay answerable */
    engineNiceness?: number;
    load?: MachineLoad;
  };
  /** set when this run computed one shard of the electrodes */
  shard?: ShardInfo;
  /** hash of the inputs and the parameters that change the likelihood: shards of one run share it */
  fingerprint?: string;
  /** the state-space posterior, when the run was a decode that asked for one */
  posterior?: PosteriorReport;
  /** a decode of part of a recording: the whole recording's time and peak memory at this decode's rates */
  projection?: RecordingProjection;
  /** measurements of the seeds that have no meaning here, and why */
  notApplicable: string[];
  status: 'completed' | 'failed' | 'cancelled';
  error?: SerializedError;
}
