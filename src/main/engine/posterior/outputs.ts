/**
 * Posteriors as upstream returns them (posterior-spec §12): every state bin in state order with
 * NaN in non-interior bins, the probability of each state, and the most probable position.
 */
import { gridDims } from './grid';
import type { StateSpace } from './stateSpaceTypes';

/** T × nStateBins float32: the interior values in their columns, NaN elsewhere (into `out` when given, a streamed window's reused buffer). */
export function maskedPosterior(space: StateSpace, interior: Float32Array, rows: number, out = new Float32Array(rows * space.nStateBins)): Float32Array {
  const n = space.nInteriorStateBins;
  const width = space.nStateBins;
  out.fill(NaN, 0, rows * width);
  const columns = space.interiorStateBinColumn;
  for (let t = 0; t < rows; t++) {
    for (let k = 0; k < n; k++) out[t * width + columns[k]!] = interior[t * n + k]!;
  }
  return out;
}

/** T × S: each state's posterior mass (a one-hot product over interior state bins). */
export function stateProbabilities(
  space: StateSpace, interior: Float32Array, rows: number, out = new Float32Array(rows * space.stateKinds.length),
): Float32Array {
  const n = space.nInteriorStateBins;
  const nStates = space.stateKinds.length;
  for (let t = 0; t < rows; t++) {
    for (let s = 0; s < nStates; s++) {
      let sum = 0;
      for (let k = space.stateStart[s]!; k < space.stateStart[s + 1]!; k++) sum += interior[t * n + k]!;
      out[t * nStates + s] = sum;
    }
  }
  return out;
}

/**
 * Centre of the bin with the most posterior summed over the spatial states, per row (rows × dims,
 * x then y on a 2-D grid); NaN when the spatial states hold no mass (all the probability sits in
 * Local or No-Spike, or the row is empty).
 */
export function mapPosition(space: StateSpace, interior: Float32Array, rows: number, out = new Float64Array(rows * gridDims(space.grid))): Float64Array {
  const dims = gridDims(space.grid);
  const n = space.nInteriorStateBins;
  const p = space.nInteriorBins;
  const byBin = new Float64Array(p);
  const spatial = space.stateKinds.flatMap((kind, s) => (kind === 'spatial' ? [s] : []));
  for (let t = 0; t < rows; t++) {
    byBin.fill(0);
    for (const s of spatial) {
      const start = t * n + space.stateStart[s]!;
      for (let k = 0; k < p; k++) byBin[k]! += interior[start + k]!;
    }
    let best = -1;
    for (let k = 0; k < p; k++) if (byBin[k]! > 0 && (best < 0 || byBin[k]! > byBin[best]!)) best = k;
    const bin = best < 0 ? -1 : space.interiorBins[best]!;
    for (let a = 0; a < dims; a++) out[t * dims + a] = bin < 0 ? NaN : space.grid.centers[bin * dims + a]!;
  }
  return out;
}

export interface PosteriorOutputs {
  acausalPosterior: Float32Array;
  causalPosterior: Float32Array;
  acausalStateProbabilities: Float32Array;
  causalStateProbabilities: Float32Array;
  mapPosition: Float64Array;
  marginalLogLikelihood: number;
}

export function assembleOutputs(
  space: StateSpace, result: { causal: Float32Array; acausal: Float32Array; marginalLogLikelihood: number }, rows: number,
): PosteriorOutputs {
  return {
    acausalPosterior: maskedPosterior(space, result.acausal, rows),
    causalPosterior: maskedPosterior(space, result.causal, rows),
    acausalStateProbabilities: stateProbabilities(space, result.acausal, rows),
    causalStateProbabilities: stateProbabilities(space, result.causal, rows),
    mapPosition: mapPosition(space, result.acausal, rows),
    marginalLogLikelihood: result.marginalLogLikelihood,
  };
}
