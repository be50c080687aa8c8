import { describe, expect, it } from 'vitest';
import { OrderedTermSum, type TermSink } from '../../engine';
import { releaseTerms, TermRing, type TermRelease } from './termRing';

describe('TermRing', () => {
  it('hands out distinct slots until all are busy, and each again once released', () => {
    const ring = new TermRing(2, 4);
    const a = ring.take(4)!;
    const b = ring.take(3)!;
    expect([a.release.slot, b.release.slot]).toEqual([0, 1]);
    expect([a.view.length, b.view.length]).toEqual([4, 3]);
    a.view.fill(1);
    b.view.fill(2);
    expect([...a.view]).toEqual([1, 1, 1, 1]);
    expect(ring.take(1)).toBeNull();
    releaseTerms(b.release);
    expect(ring.take(2)!.release.slot).toBe(1);
    ring.reset();
    expect(ring.take(1)!.release.slot).toBe(0);
  });

  it('refuses a block larger than a slot', () => {
    expect(new TermRing(4, 8).take(9)).toBeNull();
  });

  it('shares the block and its flag with whoever receives a clone of the message', () => {
    const ring = new TermRing(1, 4);
    const taken = ring.take(4)!;
    // what postMessage does to the 'terms' message: a structured clone, shared memory kept shared
    const received = structuredClone({ values: taken.view, release: taken.release });
    taken.view.set([1, 2, 3, 4]);
    expect([...received.values]).toEqual([1, 2, 3, 4]);
    expect(ring.take(1)).toBeNull();
    releaseTerms(received.release);
    expect(ring.take(1)).not.toBeNull();
  });
});

describe('OrderedTermSum with ring blocks', () => {
  it('releases a block once it is added, a waiting one only when its electrode comes due', () => {
    const added: string[] = [];
    const sink: TermSink = {
      ll: new Float64Array(0),
      addTerms: (values, _rows, start) => {
        added.push(`${values[0]}@${start}`);
        return 0;
      },
      addFloor: () => undefined,
      addRowSums: () => undefined,
    };
    const rows = Int32Array.from([0, 1]);
    const sum = new OrderedTermSum(sink, [{ kind: 'terms', rows }, { kind: 'terms', rows }]);
    const ring = new TermRing(2, 2);
    const first = ring.take(2)!;
    const second = ring.take(2)!;
    const busy = (r: TermRelease) => Atomics.load(r.flags, r.slot) === 1;
    first.view.fill(1);
    second.view.fill(2);
    // electrode 1's block comes first: it waits, its slot stays busy
    sum.onTerms(1, 0, second.view, () => releaseTerms(second.release));
    expect(busy(second.release)).toBe(true);
    sum.onTerms(0, 0, first.view, () => releaseTerms(first.release));
    expect(busy(first.release)).toBe(false);
    expect(busy(second.release)).toBe(true);
    sum.onElectrodeDone(0);
    expect(busy(second.release)).toBe(false);
    sum.onElectrodeDone(1);
    expect(added).toEqual(['1@0', '2@0']);
    expect(sum.complete).toBe(true);
  });
});
