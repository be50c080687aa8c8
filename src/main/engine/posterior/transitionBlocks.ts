/**
 * The combined transition A = C ⊙ D (posterior-spec §4–§5) as blocks of two states over interior
 * state bins. Every block is either a constant (one-bin blocks, the "ASSUME uniform" 1 × B rule,
 * the all-ones B × 1 rule, uniform blocks) or a random walk; the dense and the structured forms
 * are both built from this one list, so they hold the same numbers.
 */
import { gridRandomWalkRow, uniformValue } from './continuousTransitions';
import { spansGrid, type StateLayout } from './stateSpaceTypes';

export interface TransitionBlock {
  rowStart: number;
  rows: number;
  colStart: number;
  cols: number;
  /** the discrete transition between the two states, a float64 factor of every entry */
  discrete: number;
  /** 'constant': every entry is `continuous` × discrete; 'randomWalk': rows of the random walk */
  shape: 'constant' | 'randomWalk';
  continuous: number;
}

function blockOf(layout: StateLayout, from: number, to: number): TransitionBlock | null {
  const rowStart = layout.stateStart[from]!;
  const colStart = layout.stateStart[to]!;
  const rows = layout.stateStart[from + 1]! - rowStart;
  const cols = layout.stateStart[to + 1]! - colStart;
  if (rows === 0 || cols === 0) return null;
  const fromSpatial = spansGrid(layout.stateKinds[from]!);
  const toSpatial = spansGrid(layout.stateKinds[to]!);
  const kind = layout.continuousKinds[from]![to]!;
  const base = { rowStart, rows, colStart, cols, discrete: layout.discreteTransition[from]![to]! };
  const uniform = uniformValue(layout.nInteriorBins);
  if (!fromSpatial && toSpatial) return { ...base, shape: 'constant', continuous: uniform };
  if (fromSpatial && !toSpatial) return { ...base, shape: 'constant', continuous: 1 };
  if (!fromSpatial && !toSpatial) {
    if (kind !== 'discrete') throw new RangeError(`a one-bin to one-bin block must be discrete, got ${kind}`);
    return { ...base, shape: 'constant', continuous: 1 };
  }
  if (kind === 'randomWalk') return { ...base, shape: 'randomWalk', continuous: NaN };
  if (kind === 'uniform') return { ...base, shape: 'constant', continuous: uniform };
  throw new RangeError(`a spatial to spatial block cannot be ${kind}`);
}

export function transitionBlocks(layout: StateLayout): TransitionBlock[] {
  const blocks: TransitionBlock[] = [];
  const nStates = layout.stateKinds.length;
  for (let from = 0; from < nStates; from++) {
    for (let to = 0; to < nStates; to++) {
      const block = blockOf(layout, from, to);
      if (block) blocks.push(block);
    }
  }
  return blocks;
}

/** Row of the random walk from interior bin `fromInterior`, at the interior destinations only. */
export class RandomWalkRows {
  private readonly allBins: Float64Array;
  readonly row: Float64Array;

  constructor(private readonly layout: StateLayout) {
    this.allBins = new Float64Array(layout.nBins);
    this.row = new Float64Array(layout.nInteriorBins);
  }

  compute(fromInterior: number): Float64Array {
    const { grid, interiorBins, movementVar } = this.layout;
    gridRandomWalkRow(grid, movementVar, interiorBins[fromInterior]!, this.allBins);
    for (let k = 0; k < this.row.length; k++) this.row[k] = this.allBins[interiorBins[k]!]!;
    return this.row;
  }
}
