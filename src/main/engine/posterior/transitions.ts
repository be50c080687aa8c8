/**
 * The combined transition matrix in its three forms, each built when first asked for: a caller
 * on the structured path never pays for the N × N matrix (187 MB at P = 3420 for the detector).
 */
import { buildStructuredTransition, type StructuredTransition } from './structuredTransition';
import { RandomWalkRows, transitionBlocks } from './transitionBlocks';
import type { StateLayout, Transitions } from './stateSpaceTypes';

/** A = C[interior] ⊙ D[state_ind], float64, rows from: upstream's matrix before its float32 cast. */
export function denseTransition64(layout: StateLayout): Float64Array {
  const n = layout.nInteriorStateBins;
  const a = new Float64Array(n * n);
  const walk = new RandomWalkRows(layout);
  for (const b of transitionBlocks(layout)) {
    for (let i = 0; i < b.rows; i++) {
      const base = (b.rowStart + i) * n + b.colStart;
      if (b.shape === 'constant') {
        a.fill(b.continuous * b.discrete, base, base + b.cols);
        continue;
      }
      const row = walk.compute(i);
      for (let k = 0; k < b.cols; k++) a[base + k] = row[k]! * b.discrete;
    }
  }
  return a;
}

export function lazyTransitions(layout: StateLayout): Transitions {
  let dense64: Float64Array | undefined;
  let dense: Float32Array | undefined;
  let structured: StructuredTransition | undefined;
  return {
    get dense64() {
      return (dense64 ??= denseTransition64(layout));
    },
    get dense() {
      // cast once from float64, as upstream does; the float64 copy is not kept
      return (dense ??= Float32Array.from(dense64 ?? denseTransition64(layout)));
    },
    get structured() {
      return (structured ??= buildStructuredTransition(layout));
    },
  };
}
