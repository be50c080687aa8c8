/**
 * Shared memory a pool worker writes its blocks of spike terms into, so that a block reaches the
 * main thread without an array of its own. A fresh array per block, transferred, pays the
 * first-touch faults of its pages every time, which cost more than the copy itself, and a large
 * predict sends a hundred or more blocks per worker.
 *
 * Slot s is busy from the worker's write until the main thread has added the block to the
 * likelihood and sets flags[s] back to 0 (Atomics on both sides). A worker that finds no slot free
 * (the main thread holds blocks that wait for an earlier electrode) or a block larger than a slot
 * sends a fresh array as before: it never waits for the main thread.
 */

/** What travels with a block written into a ring: the flag to clear once the block is added. */
export interface TermRelease {
  flags: Int32Array;
  slot: number;
}

/** The main thread's side: the block's slot is free again. */
export function releaseTerms(release: TermRelease): void {
  Atomics.store(release.flags, release.slot, 0);
}

export class TermRing {
  readonly flags: Int32Array;
  private readonly data: Float32Array;

  constructor(readonly slots: number, readonly slotFloats: number) {
    this.flags = new Int32Array(new SharedArrayBuffer(slots * Int32Array.BYTES_PER_ELEMENT));
    this.data = new Float32Array(new SharedArrayBuffer(slots * slotFloats * Float32Array.BYTES_PER_ELEMENT));
  }

  /** A free slot marked busy, viewed as n floats; null when n does not fit a slot or none is free. */
  take(n: number): { release: TermRelease; view: Float32Array } | null {
    if (n > this.slotFloats) return null;
    for (let slot = 0; slot < this.slots; slot++) {
      if (Atomics.compareExchange(this.flags, slot, 0, 1) === 0) {
        const view = this.data.subarray(slot * this.slotFloats, slot * this.slotFloats + n);
        return { release: { flags: this.flags, slot }, view };
      }
    }
    return null;
  }

  /**
   * Every slot free, at the start of a call. A call that succeeded has had every block added before
   * the next one is asked for; a failed call's blocks go to a likelihood that is thrown away.
   */
  reset(): void {
    for (let slot = 0; slot < this.slots; slot++) Atomics.store(this.flags, slot, 0);
  }
}
