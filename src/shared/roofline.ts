/**
 * The backend's calibration and the roofline of each strategy, as report.json carries them
 * (`environment.calibration`, `strategies[i].roofline`). Rates in GFLOP/s, G elements/s and GB/s
 * (10⁹), times in milliseconds. No imports: the renderer, the analysis and the engine's model read
 * these types alike.
 */

/** What the active backend reached on a few reference operations, measured at the start of a run. */
export interface Calibration {
  /** the backend measured (BackendName) */
  backend: string;
  /** what computes, as the backend reports it */
  device: string;
  /** a warm square float32 matmul */
  matmulGflops: number;
  /** elementwise exp over a large float32 tensor */
  expGelemsPerS: number;
  /** elementwise log over a large float32 tensor */
  logGelemsPerS: number;
  /** an elementwise add of two large float32 tensors, counting both reads and the write */
  bandwidthGBps?: number;
  /** ISO 8601 time of the measurement (older than the run when it came from the cache) */
  measuredAt: string;
  /** how long the measurement took */
  durationMs: number;
}

/**
 * The calibrated rate that bounds a stage most: the matmul peak (GEMM work), exp or log throughput
 * (transcendental work), or memory bandwidth (elementwise ops, reductions, copies, host scatter).
 */
export type RooflineCeiling = 'matmul' | 'exp' | 'log' | 'memory';

/** The work of a stage over the measured calls, and how fast it ran against its ceilings. */
export interface RooflineEntry {
  /** FLOPs: a GEMM multiply-add counts two, an exp or log one, an elementwise op or compare one per output */
  flops: number;
  /** bytes the stage's ops read and write: each tfjs op's float32 inputs and output (every op materialises) */
  bytes: number;
  /** flops / bytes (0 when no bytes move) */
  arithmeticIntensity: number;
  /** measured time of those calls */
  timeMs: number;
  achievedGflops: number;
  /**
   * The rate this mix of work reaches at the calibrated ceilings: flops over the sum of the GEMM
   * flops at the matmul peak, the exps and logs at their throughput, and the elementwise bytes at
   * the bandwidth. A pure GEMM stage's peak is the matmul peak.
   */
  peakGflops: number;
  /** achieved / peak: the time the ceilings allow over the time measured */
  fractionOfPeak: number;
  ceiling: RooflineCeiling;
}

export interface StageRoofline extends RooflineEntry {
  /** the engine's stage (span) name: occupancy, ground-process, position-kernel, mark-kernel, reduce, scatter; filter and smooth for a posterior */
  stage: string;
  /** measured calls of the stage (every electrode, block and chunk of the timed repeats) */
  calls: number;
}

/** The strategy's modelled stages together (the totals), and each stage. */
export interface StrategyRoofline extends RooflineEntry {
  stages: StageRoofline[];
}

/** The parts of a report the roofline chart reads; a Report fits it. */
export interface RooflineReportPart {
  environment: { calibration?: Calibration };
  strategies: readonly { strategy: string; roofline?: StrategyRoofline }[];
}
