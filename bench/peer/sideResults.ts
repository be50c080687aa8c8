/**
 * What each side of the peer bench reports, one JSON line per process: the NumPy peer
 * (kde_peer.py) and the engine (engineSide.ts). Times in ms, memory in bytes.
 */
import { median } from '../table';

/** |got − want| against rtol 1e-4, atol 1e-4: toleranceUsed ≤ 1 passes */
export interface Deviation {
  maxAbsDiff: number;
  toleranceUsed: number;
  ok: boolean;
}

interface SideTimings {
  loadMs: number;
  firstFitMs: number;
  firstPredictMs: number;
  /** warm samples, after the first call and the warmup calls */
  fitMs: number[];
  predictMs: number[];
  totalMs: number[];
  fitMedianMs: number | null;
  predictMedianMs: number | null;
  totalMedianMs: number | null;
  /** the process's peak resident set (getrusage maxrss), load and data included */
  peakRssBytes: number;
  /** engine pool workers the electrodes were spread over (engine side only) */
  workers?: number;
}

interface PeerSizes {
  electrodes: number;
  bins: number;
  rows: number;
  positionSamples: number;
  encodingSpikes: number;
  decodingSpikes: number;
  features: number[];
}

export interface PeerResult extends SideTimings {
  peer: string;
  file: string;
  sizes: PeerSizes;
  numpyVersion: string;
  blas: { name: string | null; version: string | null } | null;
  blasRuntime: string | null;
  blasThreads: number | null;
  cpuCount: number | null;
  /** against the float64 expected outputs, when the file carries them */
  parity?: { ok: boolean; arrays: Record<string, Deviation> };
}

export interface EngineResult extends SideTimings {
  strategy: string;
  backend: string;
  device: string;
  /** strategies the electrodes actually ran, with counts (auto picks per electrode) */
  resolved: Record<string, number>;
  /** why a dispatch chose what it chose, the distinct reasons over the electrodes */
  reasons?: string[];
  /** the likelihood against the peer's, and against the file's float64 expected output */
  vsPeer?: Deviation;
  vsExpected?: Deviation;
  /** on webgpu, what the device did in the last warm fit + predict: dispatches, pipelines compiled, readbacks and their bytes */
  gpu?: { dispatches: number; pipelines: number; readbacks: number; readBytes: number };
  /** whether each stage waited for the device (a readback per stage) */
  stageSync?: boolean;
}

/** nld_peer.py's agreement figures: maxAbsDiff null where nothing was finite */
export interface NldDeviation {
  maxAbsDiff: number | null;
  maxRelDiff: number | null;
  'over1e-3': number;
  entries: number;
  nonFinite: number;
  error?: string;
}

/** non_local_detector on JAX (nld_peer.py): the same timings, its JIT compilations and JAX's device */
export interface NldResult extends SideTimings {
  peer: string;
  jaxVersion: string;
  jaxBackend: string;
  jaxDevice: string;
  compiles: { cold: number; warm: number } | null;
  vsExpected?: NldDeviation;
  vsPeer?: NldDeviation;
}

/** a side that did not run to the end: its message says why */
export interface SideFailure {
  error: string;
  strategy?: string;
}

export function isFailure(r: object): r is SideFailure {
  return 'error' in r;
}

const TOLERANCE = { rtol: 1e-4, atol: 1e-4 } as const;

export function deviation(got: ArrayLike<number>, want: ArrayLike<number>): Deviation {
  let maxAbsDiff = 0;
  let toleranceUsed = 0;
  for (let i = 0; i < want.length; i++) {
    const diff = Math.abs(got[i]! - want[i]!);
    if (Number.isNaN(diff)) {
      if (!(Number.isNaN(got[i]!) && Number.isNaN(want[i]!))) toleranceUsed = Infinity;
      continue;
    }
    maxAbsDiff = Math.max(maxAbsDiff, diff);
    toleranceUsed = Math.max(toleranceUsed, diff / (TOLERANCE.atol + TOLERANCE.rtol * Math.abs(want[i]!)));
  }
  if (got.length !== want.length) toleranceUsed = Infinity;
  return { maxAbsDiff, toleranceUsed, ok: toleranceUsed <= 1 };
}

export function medianOrNull(xs: number[]): number | null {
  return xs.length > 0 ? median(xs) : null;
}
