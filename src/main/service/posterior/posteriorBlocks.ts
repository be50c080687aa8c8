/**
 * Folding posterior rows into displayed rows, fed one time row at a time so the files are read a
 * bounded chunk at a time. Pure: no files here.
 */

/**
 * The spatial posterior of a block of rows. Each row's probability is first added up over the
 * states shown and over each group of bins (a displayed cell is the probability that the position
 * lies in its group, so it reads the same at any width), then the block keeps the MAXIMUM of each
 * cell over its rows: a replay a few rows long must stay visible in an overview of an hour, where
 * a mean would dilute it by the block size. Bins off the track (NaN) are left out; a cell with no
 * bin on the track stays NaN. The block also keeps its most confident row (the highest single
 * bin), whose MAP position stands for the block.
 */
export class PosteriorBlockReducer {
  readonly values: number[] = [];
  /** per block: the row whose largest bin was highest; -1 where every value was NaN */
  readonly bestRows: number[] = [];
  private readonly cells: Float64Array;
  private readonly bins: Float64Array;
  private block = 0;
  private bestRow = -1;
  private bestPeak = -Infinity;

  constructor(
    private readonly rowBlocks: readonly [number, number][],
    private readonly colGroups: readonly [number, number][],
    private readonly nBins: number,
    /** the column of each shown state's first bin */
    private readonly firstColumns: readonly number[],
  ) {
    this.cells = new Float64Array(colGroups.length).fill(Number.NaN);
    this.bins = new Float64Array(nBins);
  }

  addRow(row: number, values: Float32Array | Float64Array, offset: number): void {
    while (row >= this.rowBlocks[this.block]![1]) this.finishBlock();
    const { bins, nBins, cells } = this;
    bins.fill(Number.NaN);
    let peak = -Infinity;
    for (let b = 0; b < nBins; b++) {
      let s = Number.NaN;
      for (const first of this.firstColumns) {
        const v = values[offset + first + b]!;
        if (!Number.isNaN(v)) s = Number.isNaN(s) ? v : s + v;
      }
      bins[b] = s;
      if (s > peak) peak = s;
    }
    if (peak > this.bestPeak) {
      this.bestPeak = peak;
      this.bestRow = row;
    }
    this.colGroups.forEach(([c0, c1], g) => {
      let mass = Number.NaN;
      for (let b = c0; b < c1; b++) if (!Number.isNaN(bins[b]!)) mass = Number.isNaN(mass) ? bins[b]! : mass + bins[b]!;
      if (!Number.isNaN(mass) && !(mass <= cells[g]!)) cells[g] = mass;
    });
  }

  /** closes the current block; call once more after the last row */
  finishBlock(): void {
    for (const v of this.cells) this.values.push(v);
    this.bestRows.push(this.bestRow);
    this.cells.fill(Number.NaN);
    this.bestRow = -1;
    this.bestPeak = -Infinity;
    this.block++;
  }
}

/**
 * The state probabilities of a block of rows: per state the maximum over the block's rows, and
 * the maximum of the non-local states' sum taken row by row (the periods a lab marks are rows
 * where that sum is high; the sum of two separate maxima could exceed any row's).
 */
export class StateBlockReducer {
  readonly perState: number[][];
  readonly nonLocal: number[] = [];
  /** per block: the row whose non-local sum was highest (the first row where the model has no non-local state); -1 where none was a number */
  readonly peakRows: number[] = [];
  private readonly max: Float64Array;
  private nonLocalMax = Number.NaN;
  private peakRow = -1;
  private block = 0;

  constructor(
    private readonly rowBlocks: readonly [number, number][],
    private readonly nStates: number,
    private readonly nonLocalIndices: readonly number[],
  ) {
    this.perState = Array.from({ length: nStates }, () => []);
    this.max = new Float64Array(nStates).fill(Number.NaN);
  }

  addRow(row: number, values: Float32Array | Float64Array, offset: number): void {
    while (row >= this.rowBlocks[this.block]![1]) this.finishBlock();
    for (let s = 0; s < this.nStates; s++) {
      const v = values[offset + s]!;
      if (!Number.isNaN(v) && !(v <= this.max[s]!)) this.max[s] = v;
    }
    if (this.nonLocalIndices.length === 0) {
      if (this.peakRow < 0) this.peakRow = row;
      return;
    }
    let sum = 0;
    for (const s of this.nonLocalIndices) sum += values[offset + s]!;
    if (!Number.isNaN(sum) && !(sum <= this.nonLocalMax)) {
      this.nonLocalMax = sum;
      this.peakRow = row;
    }
  }

  finishBlock(): void {
    for (let s = 0; s < this.nStates; s++) this.perState[s]!.push(this.max[s]!);
    this.nonLocal.push(this.nonLocalMax);
    this.peakRows.push(this.peakRow);
    this.max.fill(Number.NaN);
    this.nonLocalMax = Number.NaN;
    this.peakRow = -1;
    this.block++;
  }
}
