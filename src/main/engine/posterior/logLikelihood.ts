/**
 * The HMM's log likelihood over interior state bins (posterior-spec §8): each state's columns in
 * state order, float32 like upstream, the two non-local states sharing one array.
 */
import { spansGrid, type StateSpace } from './stateSpaceTypes';

export interface LikelihoodParts {
  /** T × P over interior bins, for every spatial (non-local) state */
  nonLocal?: Float32Array;
  /** T, the Local state */
  local?: Float32Array;
  /** T, the No-Spike state */
  noSpike?: Float32Array;
  /** T × P, the multi-bin Local state's log kernel, added to the non-local likelihood in its columns */
  localKernel?: Float32Array;
}

function partOf(space: StateSpace, s: number, parts: LikelihoodParts): { values: Float32Array; width: number } {
  const kind = space.stateKinds[s]!;
  const values = spansGrid(kind) ? parts.nonLocal : kind === 'local' ? parts.local : parts.noSpike;
  if (!values) throw new RangeError(`the ${space.stateNames[s]} state needs its ${kind} log likelihood`);
  return { values, width: spansGrid(kind) ? space.nInteriorBins : 1 };
}

/** The multi-bin Local state's columns: the non-local likelihood plus the kernel, summed in float32 as upstream adds into its float32 array. */
function addKernel(space: StateSpace, s: number, rows: number, kernel: Float32Array | undefined, out: Float32Array): void {
  const p = space.nInteriorBins;
  if (!kernel) throw new RangeError(`the ${space.stateNames[s]} state needs its position kernel`);
  if (kernel.length !== rows * p) throw new RangeError(`the ${space.stateNames[s]} position kernel has ${kernel.length} values, expected ${rows} × ${p}`);
  const n = space.nInteriorStateBins;
  const start = space.stateStart[s]!;
  for (let t = 0; t < rows; t++) {
    for (let k = 0; k < p; k++) out[t * n + start + k] = Math.fround(out[t * n + start + k]! + kernel[t * p + k]!);
  }
}

/** T × N, row-major (into `out` when given); rows with a missing position are 0 for every state (no evidence). */
export function assembleLogLikelihood(
  space: StateSpace, rows: number, parts: LikelihoodParts, isMissing?: Uint8Array, out = new Float32Array(rows * space.nInteriorStateBins),
): Float32Array {
  const n = space.nInteriorStateBins;
  for (let s = 0; s < space.stateKinds.length; s++) {
    const { values, width } = partOf(space, s, parts);
    if (values.length !== rows * width) {
      throw new RangeError(`the ${space.stateNames[s]} log likelihood has ${values.length} values, expected ${rows} × ${width}`);
    }
    const start = space.stateStart[s]!;
    for (let t = 0; t < rows; t++) out.set(values.subarray(t * width, (t + 1) * width), t * n + start);
    if (space.stateKinds[s] === 'spatialLocal') addKernel(space, s, rows, parts.localKernel, out);
  }
  if (isMissing) {
    for (let t = 0; t < rows; t++) if (isMissing[t]) out.fill(0, t * n, (t + 1) * n);
  }
  return out;
}
