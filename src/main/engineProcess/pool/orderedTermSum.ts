/**
 * Adds the spike terms that pool workers stream back into the likelihood in one fixed order —
 * electrode by electrode, each electrode's blocks in order — whichever worker computed them and
 * whenever they arrived. That is the order the engine's own single-thread predict adds in, with the
 * same float64 arithmetic (addTermsToRows), so the likelihood is bitwise the same for any number of
 * workers and any schedule. Blocks of an electrode ahead of the next one due wait in memory.
 */
import type { ElectrodeTermsKind } from '../../engine';
import type { TermListener } from './enginePool';

export interface ElectrodeRows {
  kind: ElectrodeTermsKind;
  /** output row of each in-bounds decoding spike */
  rows: Int32Array;
}

export interface TermArithmetic {
  addTermsToRows(ll: Float64Array, values: Float32Array, rows: Int32Array, start: number, nBins: number): number;
  addFloorTerms(ll: Float64Array, rows: Int32Array, nBins: number): void;
}

export class OrderedTermSum implements TermListener {
  private next = 0;
  private readonly waiting = new Map<number, { start: number; values: Float32Array }[]>();
  private readonly done = new Set<number>();
  /** spike terms on the floor, per electrode (those with terms) */
  readonly floored: number[];

  constructor(
    private readonly ll: Float64Array,
    private readonly electrodes: readonly ElectrodeRows[],
    private readonly nBins: number,
    private readonly math: TermArithmetic,
    private readonly onSummed: (electrode: number) => void = () => undefined,
  ) {
    this.floored = electrodes.map(() => 0);
    this.advance();
  }

  /** every electrode has been added */
  get complete(): boolean {
    return this.next >= this.electrodes.length;
  }

  onTerms(electrode: number, start: number, values: Float32Array): void {
    if (electrode === this.next) this.add(electrode, start, values);
    else {
      const list = this.waiting.get(electrode) ?? [];
      list.push({ start, values });
      this.waiting.set(electrode, list);
    }
  }

  onElectrodeDone(electrode: number): void {
    this.done.add(electrode);
    if (electrode === this.next) this.advance();
  }

  private add(electrode: number, start: number, values: Float32Array): void {
    const rows = this.electrodes[electrode]!.rows;
    this.floored[electrode] = this.floored[electrode]! + this.math.addTermsToRows(this.ll, values, rows, start, this.nBins);
  }

  /** Adds every electrode that is due and complete, in order, and stops at the first still computing. */
  private advance(): void {
    while (this.next < this.electrodes.length) {
      const e = this.next;
      const { kind, rows } = this.electrodes[e]!;
      if (kind === 'terms') {
        for (const block of this.waiting.get(e) ?? []) this.add(e, block.start, block.values);
        this.waiting.delete(e);
        if (!this.done.has(e)) return;
      } else if (kind === 'floor') {
        this.math.addFloorTerms(this.ll, rows, this.nBins);
      }
      this.next++;
      this.onSummed(e);
    }
  }
}
