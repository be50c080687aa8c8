/**
 * The decoder's and the detector's state spaces (posterior-spec §3, §5, §6): their states, bins,
 * interior bins and initial distribution; the transitions follow on first use.
 */
import type { ContinuousKind } from './continuousTransitions';
import {
  checkDiscreteTransition, decoderDiscreteInitial, decoderDiscreteTransition, detectorDiscreteInitial,
  detectorDiscreteTransition,
} from './discreteTransitions';
import { checkGrid, gridBinCount, type PlaceGrid } from './grid';
import { spansGrid, type PosteriorModel, type StateKind, type StateLayout, type StateSpace, type StateSpaceOptions } from './stateSpaceTypes';
import { lazyTransitions } from './transitions';

export const DEFAULT_MOVEMENT_VAR = 6.0;
export const DEFAULT_NO_SPIKE_RATE = 1e-10;

interface ModelStates {
  names: string[];
  kinds: StateKind[];
  continuous: ContinuousKind[][];
  discreteTransition: () => number[][];
  discreteInitial: () => number[];
}

const MODELS: Record<PosteriorModel, ModelStates> = {
  decoder: {
    names: ['Continuous'],
    kinds: ['spatial'],
    continuous: [['randomWalk']],
    discreteTransition: decoderDiscreteTransition,
    discreteInitial: decoderDiscreteInitial,
  },
  detector: {
    names: ['Local', 'No-Spike', 'Non-Local Continuous', 'Non-Local Fragmented'],
    kinds: ['local', 'noSpike', 'spatial', 'spatial'],
    continuous: [
      ['discrete', 'discrete', 'uniform', 'uniform'],
      ['discrete', 'discrete', 'uniform', 'uniform'],
      ['discrete', 'discrete', 'randomWalk', 'uniform'],
      ['discrete', 'discrete', 'uniform', 'uniform'],
    ],
    discreteTransition: detectorDiscreteTransition,
    discreteInitial: detectorDiscreteInitial,
  },
};

/**
 * The detector with NLD's multi-bin Local: the Local state spans the grid, and every discrete
 * transition into or out of it becomes uniform (NLD upgrades Discrete() to Uniform() there), so a
 * row entering Local spreads evenly and the kernel in its likelihood places it.
 */
function withSpatialLocal(states: ModelStates): ModelStates {
  const local = states.kinds.indexOf('local');
  return {
    ...states,
    kinds: states.kinds.map((k) => (k === 'local' ? 'spatialLocal' : k)),
    continuous: states.continuous.map((row, from) => row.map((kind, to) => ((from === local || to === local) && kind === 'discrete' ? 'uniform' : kind))),
  };
}

function statesOf(model: PosteriorModel, localPositionStd: number | undefined): ModelStates {
  if (localPositionStd === undefined) return MODELS[model];
  if (!MODELS[model].kinds.includes('local')) throw new RangeError(`the ${model} has no Local state to give a position std`);
  if (!(localPositionStd >= 0) || !Number.isFinite(localPositionStd)) throw new RangeError(`the local position std must be a number ≥ 0, got ${localPositionStd}`);
  return withSpatialLocal(MODELS[model]);
}

/** state_ind and is_interior_state_bin over all state bins (§3). */
function stateBins(kinds: StateKind[], interior: Uint8Array): { stateIndex: Int32Array; isInterior: Uint8Array } {
  const sizes = kinds.map((kind) => (spansGrid(kind) ? interior.length : 1));
  const total = sizes.reduce((a, b) => a + b, 0);
  const stateIndex = new Int32Array(total);
  const isInterior = new Uint8Array(total);
  let k = 0;
  kinds.forEach((kind, s) => {
    for (let b = 0; b < sizes[s]!; b++, k++) {
      stateIndex[k] = s;
      isInterior[k] = spansGrid(kind) ? interior[b]! : 1;
    }
  });
  return { stateIndex, isInterior };
}

/**
 * Uniform over interior bins within a spatial state, divided in float32 upstream (so fl32(1/P)),
 * 1 for a one-bin state, times the state's discrete initial probability, then cast to float32.
 */
function initialDistribution(layout: Omit<StateLayout, 'initial'>): Float32Array {
  const perBin = Math.fround(1 / Math.fround(layout.nInteriorBins));
  const out = new Float32Array(layout.nInteriorStateBins);
  for (let k = 0; k < out.length; k++) {
    const s = layout.interiorStateIndex[k]!;
    const continuous = spansGrid(layout.stateKinds[s]!) ? perBin : 1;
    out[k] = continuous * layout.discreteInitial[s]!;
  }
  return out;
}

function interiorLayout(kinds: StateKind[], grid: PlaceGrid) {
  const { stateIndex, isInterior } = stateBins(kinds, grid.interior);
  const columns: number[] = [];
  isInterior.forEach((inside, k) => inside && columns.push(k));
  const interiorStateBinColumn = Int32Array.from(columns);
  const interiorStateIndex = interiorStateBinColumn.map((k) => stateIndex[k]!);
  const stateStart = new Int32Array(kinds.length + 1);
  for (const s of interiorStateIndex) stateStart[s + 1]!++;
  for (let s = 0; s < kinds.length; s++) stateStart[s + 1]! += stateStart[s]!;
  const interiorBins: number[] = [];
  grid.interior.forEach((inside, b) => inside && interiorBins.push(b));
  return {
    stateIndex, isInteriorStateBin: isInterior, interiorStateBinColumn, interiorStateIndex, stateStart,
    nStateBins: stateIndex.length, nInteriorStateBins: columns.length,
    interiorBins: Int32Array.from(interiorBins), nInteriorBins: interiorBins.length,
  };
}

export function buildStateSpace(model: PosteriorModel, grid: PlaceGrid, options: StateSpaceOptions = {}): StateSpace {
  checkGrid(grid);
  const states = statesOf(model, options.localPositionStd);
  const discreteTransition = options.discreteTransition ?? states.discreteTransition();
  checkDiscreteTransition(discreteTransition, states.kinds.length);
  const discreteInitial = options.discreteInitial ?? states.discreteInitial();
  if (discreteInitial.length !== states.kinds.length) {
    throw new RangeError(`discrete initial distribution needs ${states.kinds.length} entries`);
  }
  const movementVar = options.movementVar ?? DEFAULT_MOVEMENT_VAR;
  if (!(movementVar > 0)) throw new RangeError(`movement variance must be positive, got ${movementVar}`);
  const partial = {
    model, grid, stateNames: states.names, stateKinds: states.kinds, continuousKinds: states.continuous,
    discreteTransition, discreteInitial, movementVar, noSpikeRate: options.noSpikeRate ?? DEFAULT_NO_SPIKE_RATE,
    ...(options.localPositionStd !== undefined ? { localPositionStd: options.localPositionStd } : {}),
    nBins: gridBinCount(grid), ...interiorLayout(states.kinds, grid),
  };
  const layout: StateLayout = { ...partial, initial: initialDistribution(partial) };
  return { ...layout, transitions: lazyTransitions(layout) };
}
