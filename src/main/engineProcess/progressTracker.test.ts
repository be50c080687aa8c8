import { describe, expect, it } from 'vitest';
import { ProgressTracker } from './progressTracker';

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('ProgressTracker', () => {
  it('gives no ETA before any unit has been measured', () => {
    const c = clock();
    const p = new ProgressTracker([{ name: 'a', units: 3 }], c.now);
    p.beginUnit('a', 'cold');
    c.advance(50);
    const s = p.snapshot(0.5, 'decode');
    expect(s.etaMs).toBeUndefined();
    expect(s.fraction).toBeCloseTo(0.5 / 3);
    expect(s.label).toBe('a · cold · decode');
  });

  it('estimates the rest of a group from its own warm units', () => {
    const c = clock();
    const p = new ProgressTracker([{ name: 'a', units: 4 }], c.now);
    p.beginUnit('a', 'cold');
    c.advance(1000); // cold: slow, must not drive the estimate once warm units exist
    p.endUnit();
    p.beginUnit('a', 'repeat 1');
    c.advance(100);
    p.endUnit();
    p.beginUnit('a', 'repeat 2');
    expect(p.snapshot().etaMs).toBe(200);
    c.advance(30);
    expect(p.snapshot().etaMs).toBe(170);
    expect(p.snapshot().fraction).toBeCloseTo(0.5);
  });

  it('uses the measured mean unit of finished groups for groups not started yet', () => {
    const c = clock();
    const p = new ProgressTracker([{ name: 'a', units: 2 }, { name: 'b', units: 3 }], c.now);
    p.beginUnit('a', 'cold');
    c.advance(300);
    p.endUnit();
    p.beginUnit('a', 'repeat 1');
    c.advance(100);
    p.endUnit();
    expect(p.snapshot().etaMs).toBe(300);
    expect(p.snapshot().fraction).toBeCloseTo(2 / 5);
  });

  it('counts a skipped group as done', () => {
    const c = clock();
    const p = new ProgressTracker([{ name: 'a', units: 4 }, { name: 'b', units: 4 }], c.now);
    p.skipRest('a');
    expect(p.snapshot().fraction).toBeCloseTo(0.5);
  });
});
