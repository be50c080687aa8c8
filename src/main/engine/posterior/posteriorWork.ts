/**
 * What the filter and smoother do per row, for the roofline (their spans carry it as args.work, the
 * report's CountedWork; this folder imports nothing of the engine's model, so it sums its own), and
 * what they hold in memory, for the estimate a decode reports beside the measured peak. Counting
 * follows model/opWork.ts: a multiply-add is two FLOPs, every other arithmetic step one, an exp one
 * transcendental; bytes are what the loops read and write (float32 posteriors and transition
 * values, float64 sums). A product streams its matrix (dense: N² values; structured: the band's
 * values and the rank-one rows) and is bandwidth-bound.
 */
import type { CountedWork as Work } from '../../../shared/report';
import { localKernelCacheBytes } from './localPositionKernel';
import type { StateSpace } from './stateSpaceTypes';
import type { TransitionMethod } from './transitionProducts';

const NO_WORK: Work = { gemmFlops: 0, otherFlops: 0, exps: 0, logs: 0, bytes: 0, streamBytes: 0 };

function addWork(...parts: Work[]): Work {
  const out = { ...NO_WORK };
  for (const w of parts) for (const k of Object.keys(out) as (keyof Work)[]) out[k] += w[k];
  return out;
}

const F32 = 4;
const F64 = 8;
const I32 = 4;

/** One product with the transition matrix, f @ A or A @ r. */
export function transitionProductWork(space: StateSpace, method: TransitionMethod): Work {
  const n = space.nInteriorStateBins;
  if (method === 'dense') {
    const matrix = F32 * n * n;
    return { ...NO_WORK, otherFlops: 2 * n * n, bytes: matrix + 2 * F64 * n, streamBytes: matrix };
  }
  let flops = 0;
  let matrix = 0;
  for (const b of space.transitions.structured.blocks) {
    if (b.kind === 'convolution') {
      // the convolution (two FFTs, or the separable passes), scatter and gather
      flops += b.convolution.applyFlops + 3 * b.rows;
      matrix += b.convolution.streamBytes + I32 * b.rows + F64 * b.rows;
    } else if (b.kind === 'band') {
      flops += 2 * b.values.length;
      matrix += F32 * b.values.length + 3 * I32 * b.rows;
    } else {
      flops += 2 * (b.rows + b.values.length);
      matrix += F32 * b.values.length;
    }
  }
  return { ...NO_WORK, otherFlops: flops, bytes: matrix + 2 * F64 * n, streamBytes: matrix };
}

/** One filter row: the row's maximum, exp(LL − max)·prediction and its sum, the scaling, then f @ A. */
export function filterRowWork(space: StateSpace, method: TransitionMethod): Work {
  const n = space.nInteriorStateBins;
  const condition: Work = { ...NO_WORK, otherFlops: 5 * n, exps: n, logs: 1, bytes: (3 * F32 + 2 * F64) * n, streamBytes: 0 };
  return addWork(condition, transitionProductWork(space, method));
}

/**
 * One smoother row as the streamed decode runs it: f_t @ A recomputed (the causal posterior comes back
 * from its file without the prediction), the ratio a_{t+1}/p, A @ ratio, and the normalised product.
 */
export function smoothRowWork(space: StateSpace, method: TransitionMethod): Work {
  const n = space.nInteriorStateBins;
  const elementwise: Work = { ...NO_WORK, otherFlops: 5 * n, bytes: (4 * F32 + 4 * F64) * n, streamBytes: 0 };
  const product = transitionProductWork(space, method);
  return addWork(elementwise, product, product);
}

export interface PosteriorMemoryEstimate {
  bytes: number;
  formula: string;
}

/** The transition matrix in the form the method reads. */
export function transitionBytes(space: StateSpace, method: TransitionMethod): number {
  const n = space.nInteriorStateBins;
  if (method === 'dense') return F32 * n * n;
  let bytes = 0;
  for (const b of space.transitions.structured.blocks) {
    // a convolution keeps its tables and work arrays, and its rows' scales
    if (b.kind === 'convolution') bytes += b.convolution.heldBytes + (I32 + F64) * b.rows;
    else bytes += F32 * b.values.length + (b.kind === 'band' ? 3 * I32 * b.rows : 0);
  }
  return bytes;
}

/**
 * The posterior stage's own memory when it streams windows of `rowsPerChunk` rows over T rows: the
 * transition, the per-row evidence kept for the whole decode (local and no-spike log likelihoods,
 * the missing flags), the steppers' rows, and the larger of a filter window (likelihood read,
 * assembled, causal, masked) and a smoother window (masked read, causal, acausal, masked, state
 * probabilities, MAP).
 */
export function posteriorMemoryEstimate(space: StateSpace, method: TransitionMethod, rowsPerChunk: number, rows: number): PosteriorMemoryEstimate {
  const n = space.nInteriorStateBins;
  const cols = space.nStateBins;
  const p = space.nInteriorBins;
  const states = space.stateNames.length;
  const w = Math.min(rowsPerChunk, rows);
  const transition = transitionBytes(space, method);
  const evidence = rows * (F32 * (space.stateKinds.includes('local') ? 1 : 0) + F32 * (space.stateKinds.includes('noSpike') ? 1 : 0) + 1);
  const steppers = (F32 + 2 * F64) * n + (2 * F32 + 3 * F64) * n;
  // the multi-bin Local state's kernel: one window of it, and the kernel rows kept per bin
  const kernel = space.stateKinds.includes('spatialLocal') ? F32 * w * p + localKernelCacheBytes(p) : 0;
  const filterWindow = F32 * w * (p + 2 * n + cols) + kernel;
  const smoothWindow = F32 * w * (2 * cols + 2 * n + states) + F64 * w;
  const bytes = transition + evidence + steppers + Math.max(filterWindow, smoothWindow);
  const formula =
    `transition ${method} ${transition} B + evidence ${rows} rows ${evidence} B + steppers ${steppers} B` +
    ` + max(filter window ${filterWindow} B, smoother window ${smoothWindow} B) with windows of ${w} rows, N = ${n}`;
  return { bytes, formula };
}
