/**
 * Adds the spike terms an executor hands over into the likelihood in one fixed order — electrode
 * by electrode, each electrode's blocks in order — whichever thread or worker computed them and
 * whenever they arrived, with the same float64 arithmetic (the TermSink), so the likelihood is
 * bitwise the same for any number of workers and any schedule. Blocks of an electrode ahead of the
 * next one due wait in memory; on one thread none ever waits.
 */
import type { RowSums } from './deviceRowSums';
import type { TermSink } from './likelihoodSum';
import type { ElectrodeTermsKind } from './plan';

export interface ElectrodeRows {
  kind: ElectrodeTermsKind;
  /** output row of each in-bounds decoding spike */
  rows: Int32Array;
}

/** Where an electrode's blocks of terms go as they are computed: each electrode's blocks in order, electrodes in any order. */
export interface TermListener {
  /** with `release`: values are borrowed (a pool worker's term ring), to be given back once added */
  onTerms(electrode: number, start: number, values: Float32Array, release?: () => void): void;
  onElectrodeDone(electrode: number): void;
}

/** Where a predict's terms go: blocks as they are computed, or every electrode's at once as the device summed them into rows. */
export interface PredictTermSum extends TermListener {
  /** every electrode's terms, summed into their rows on the device (deviceRowSums.ts) */
  onRowSums(sums: RowSums): void;
}

export class OrderedTermSum implements PredictTermSum {
  private next = 0;
  private readonly waiting = new Map<number, { start: number; values: Float32Array; release?: () => void }[]>();
  private readonly done = new Set<number>();
  /** spike terms on the floor, per electrode (those with terms) */
  readonly floored: number[];

  constructor(
    private readonly sink: TermSink,
    private readonly electrodes: readonly ElectrodeRows[],
    private readonly onSummed: (electrode: number) => void = () => undefined,
  ) {
    this.floored = electrodes.map(() => 0);
    this.advance();
  }

  /** every electrode has been added */
  get complete(): boolean {
    return this.next >= this.electrodes.length;
  }

  onTerms(electrode: number, start: number, values: Float32Array, release?: () => void): void {
    if (electrode === this.next) this.add(electrode, start, values, release);
    else {
      const list = this.waiting.get(electrode) ?? [];
      list.push({ start, values, release });
      this.waiting.set(electrode, list);
    }
  }

  onElectrodeDone(electrode: number): void {
    this.done.add(electrode);
    if (electrode === this.next) this.advance();
  }

  onRowSums({ sums, floored, flooredPerElectrode }: RowSums): void {
    this.sink.addRowSums(sums, floored);
    flooredPerElectrode.forEach((n, e) => {
      this.floored[e] = this.floored[e]! + n;
    });
  }

  private add(electrode: number, start: number, values: Float32Array, release?: () => void): void {
    const rows = this.electrodes[electrode]!.rows;
    this.floored[electrode] = this.floored[electrode]! + this.sink.addTerms(values, rows, start);
    release?.();
  }

  /** Adds every electrode that is due and complete, in order, and stops at the first still computing. */
  private advance(): void {
    while (this.next < this.electrodes.length) {
      const e = this.next;
      const { kind, rows } = this.electrodes[e]!;
      if (kind === 'terms') {
        for (const block of this.waiting.get(e) ?? []) this.add(e, block.start, block.values, block.release);
        this.waiting.delete(e);
        if (!this.done.has(e)) return;
      } else if (kind === 'floor') {
        this.sink.addFloor(rows);
      }
      this.next++;
      this.onSummed(e);
    }
  }
}
