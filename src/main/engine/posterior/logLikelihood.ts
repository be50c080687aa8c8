/**
 * The HMM's log likelihood over interior state bins (posterior-spec §8): each state's columns in
 * state order, float32 like upstream, the two non-local states sharing one array.
 */
import type { StateSpace } from './stateSpaceTypes';

export interface LikelihoodParts {
  /** T × P over interior bins, for every spatial (non-local) state */
  nonLocal?: Float32Array;
  /** T, the Local state */
  local?: Float32Array;
  /** T, the No-Spike state */
  noSpike?: Float32Array;
}

function partOf(space: StateSpace, s: number, parts: LikelihoodParts): { values: Float32Array; width: number } {
  const kind = space.stateKinds[s]!;
  const values = kind === 'spatial' ? parts.nonLocal : kind === 'local' ? parts.local : parts.noSpike;
  if (!values) throw new RangeError(`the ${space.stateNames[s]} state needs its ${kind} log likelihood`);
  return { values, width: kind === 'spatial' ? space.nInteriorBins : 1 };
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
  }
  if (isMissing) {
    for (let t = 0; t < rows; t++) if (isMissing[t]) out.fill(0, t * n, (t + 1) * n);
  }
  return out;
}
