/**
 * The float32 transition matrix by its structure (posterior-spec §16): each random-walk block as
 * a band holding exactly its non-zero float32 entries, every other block as one row repeated
 * (rank one). Expanded, it is the dense float32 matrix entry for entry; a step costs O(P · band)
 * instead of O(N²). On a fine uniform grid, where the band spans hundreds of bins, a random-walk
 * block is a convolution instead (convolutionBlock.ts), O(P log P) a step, equal to float32 rounding.
 */
import { convolutionBlock, convolutionRow, type ConvolutionBlock } from './convolutionBlock';
import { RandomWalkRows, transitionBlocks, type TransitionBlock } from './transitionBlocks';
import type { StateLayout } from './stateSpaceTypes';

/** Rows of a random-walk block; row i holds values[valueStart[i] ..] at columns first[i] .. */
export interface BandBlock {
  kind: 'band';
  rowStart: number;
  rows: number;
  colStart: number;
  first: Int32Array;
  length: Int32Array;
  valueStart: Int32Array;
  values: Float32Array;
}

/** Every row of the block equals `values` (one value per destination bin). */
export interface RankOneBlock {
  kind: 'rankOne';
  rowStart: number;
  rows: number;
  colStart: number;
  values: Float32Array;
}

export interface StructuredTransition {
  size: number;
  blocks: (BandBlock | RankOneBlock | ConvolutionBlock)[];
}

function rankOneBlock(block: TransitionBlock): RankOneBlock | null {
  const value = Math.fround(block.continuous * block.discrete);
  if (value === 0) return null;
  const { rowStart, rows, colStart } = block;
  return { kind: 'rankOne', rowStart, rows, colStart, values: new Float32Array(block.cols).fill(value) };
}

/** Each row keeps its first to last non-zero float32 entry; zeros between them cost nothing wrong. */
function bandBlock(layout: StateLayout, block: TransitionBlock): BandBlock {
  const walk = new RandomWalkRows(layout);
  const first = new Int32Array(block.rows);
  const length = new Int32Array(block.rows);
  const valueStart = new Int32Array(block.rows);
  const values: number[] = [];
  const entry = new Float32Array(block.cols);
  for (let i = 0; i < block.rows; i++) {
    const row = walk.compute(i);
    let lo = -1;
    let hi = -1;
    for (let k = 0; k < block.cols; k++) {
      entry[k] = row[k]! * block.discrete;
      if (entry[k] === 0) continue;
      if (lo < 0) lo = k;
      hi = k;
    }
    valueStart[i] = values.length;
    first[i] = Math.max(lo, 0);
    length[i] = lo < 0 ? 0 : hi - lo + 1;
    for (let k = lo; lo >= 0 && k <= hi; k++) values.push(entry[k]!);
  }
  const { rowStart, rows, colStart } = block;
  return { kind: 'band', rowStart, rows, colStart, first, length, valueStart, values: Float32Array.from(values) };
}

export function buildStructuredTransition(layout: StateLayout): StructuredTransition {
  const blocks: StructuredTransition['blocks'] = [];
  for (const block of transitionBlocks(layout)) {
    const built = block.shape === 'randomWalk' ? convolutionBlock(layout, block) ?? bandBlock(layout, block) : rankOneBlock(block);
    if (built) blocks.push(built);
  }
  return { size: layout.nInteriorStateBins, blocks };
}

/** The dense N × N float32 matrix the structure stands for. */
export function expandStructured(structured: StructuredTransition): Float32Array {
  const n = structured.size;
  const out = new Float32Array(n * n);
  for (const b of structured.blocks) {
    const row = b.kind === 'convolution' ? new Float32Array(b.gridBin.length) : undefined;
    for (let i = 0; i < b.rows; i++) {
      const rowBase = (b.rowStart + i) * n + b.colStart;
      if (b.kind === 'convolution') {
        convolutionRow(b, i, row!);
        out.set(row!, rowBase);
        continue;
      }
      if (b.kind === 'rankOne') {
        out.set(b.values, rowBase);
        continue;
      }
      const start = b.valueStart[i]!;
      out.set(b.values.subarray(start, start + b.length[i]!), rowBase + b.first[i]!);
    }
  }
  return out;
}
