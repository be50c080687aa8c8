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
    // no time can be told yet: the share counts the steps, and says so
    expect(s).toMatchObject({ basis: 'count', count: { done: 0.5, total: 3, unit: 'steps' } });
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
    expect(p.snapshot().count).toMatchObject({ done: 2, total: 4 });
    // of time: 1 130 ms behind it, 170 ms ahead
    expect(p.snapshot()).toMatchObject({ basis: 'time', fraction: 1130 / 1300 });
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
    expect(p.snapshot().count).toMatchObject({ done: 2, total: 5 });
    expect(p.snapshot().fraction).toBeCloseTo(400 / 700);
  });

  it('expects a group not started yet to run at the measured pace against the work model, not at another group\'s unit time', () => {
    const c = clock();
    const p = new ProgressTracker([{ name: 'a', units: 2 }, { name: 'b', units: 2 }, { name: 'local', units: 2 }], c.now);
    // the model: b's call is 20 times a's; local has no prediction
    p.setPredicted({ a: 5, b: 100 });
    for (let i = 0; i < 2; i++) {
      p.beginUnit('a', `unit ${i}`);
      c.advance(50);
      p.endUnit();
    }
    // a ran 10× its prediction: b's units are expected at 1 000 ms; local at a's mean unit, 50 ms
    expect(p.snapshot().etaMs).toBe(2 * 1000 + 2 * 50);
  });

  it('counts a skipped group as done', () => {
    const c = clock();
    const p = new ProgressTracker([{ name: 'a', units: 4 }, { name: 'b', units: 4 }], c.now);
    p.skipRest('a');
    expect(p.snapshot().fraction).toBeCloseTo(0.5);
  });

  describe('repeats until stable', () => {
    /** one group: cold, 2 planned repeats, then repeats on until stable with a 1 s budget */
    function openGroup() {
      const c = clock();
      const p = new ProgressTracker([{ name: 'a', units: 3 }, { name: 'b', units: 3 }], c.now);
      p.untilStable(['a', 'b'], { minRepeats: 2, maxRepeats: 100, maxMs: 1000 });
      const unit = (label: string, ms: number) => {
        p.beginUnit('a', label);
        c.advance(ms);
        p.endUnit();
      };
      return { c, p, unit };
    }

    it('adds one unit per open group before any starts, so the bar never steps back', () => {
      const { p } = openGroup();
      expect(p.snapshot().fraction).toBe(0);
      // a second call (the next strategy) changes nothing
      p.untilStable(['a', 'b'], { minRepeats: 2, maxRepeats: 100, maxMs: 1000 });
      p.skipRest('a');
      expect(p.snapshot().fraction).toBeCloseTo(4 / 8);
    });

    it('fills the open unit by the share of the time budget used past the planned repeats', () => {
      const { c, p, unit } = openGroup();
      unit('cold', 300);
      p.beginRepeats('a');
      unit('repeat 1', 100);
      unit('repeat 2', 100);
      // planned units done (3 of 8); 200 ms of the 1 s budget used
      expect(p.snapshot().count?.done).toBeCloseTo(3 + 0.2);
      const before = p.snapshot().count!.done;
      p.beginUnit('a', 'repeat 3');
      c.advance(50);
      expect(p.snapshot(0.9).count!.done).toBeGreaterThan(before);
      expect(p.snapshot(0.9).count!.done).toBeCloseTo(3 + 0.25);
      p.endUnit();
      p.endRepeats('a');
      expect(p.snapshot().count!.done).toBeCloseTo(4);
    });

    it('gives as ETA the most the repeats can still take: the rest of the budget, then the next group\'s', () => {
      const { c, p, unit } = openGroup();
      unit('cold', 300);
      p.beginRepeats('a');
      unit('repeat 1', 100);
      unit('repeat 2', 100);
      p.beginUnit('a', 'repeat 3');
      // a: 1000 − 200 ms of budget left; b (from a's mean unit of 100 ms): one unit before its repeats, then up to 1 s
      expect(p.snapshot().etaMs).toBe(800 + 100 + 1000);
      c.advance(100);
      p.endUnit();
      p.endRepeats('a');
      expect(p.snapshot().etaMs).toBe(100 + 1000);
    });

    it('counts only a group\'s own repeats against its budget when the groups take turns', () => {
      const { c, p } = openGroup();
      const step = (group: string, label: string, ms: number) => {
        p.beginUnit(group, label);
        c.advance(ms);
        p.endUnit();
      };
      for (const g of ['a', 'b']) step(g, 'cold', 300);
      p.beginRepeats('a');
      p.beginRepeats('b');
      for (let i = 1; i <= 2; i++) for (const g of ['a', 'b']) step(g, `repeat ${i}`, 100);
      // each group: planned units done, 200 ms of its own 1 s used though 400 ms passed since its repeats began
      expect(p.snapshot().count!.done).toBeCloseTo(6 + 0.2 + 0.2);
      expect(p.snapshot().etaMs).toBe(800 + 800);
    });
  });

  it('reads as time under repeats until stable, where most of the time is in a few steps', () => {
    // seven strategies as under --repeats auto: a cold call each, two planned repeats, then repeats
    // taking turns until each has used its 2 s budget (the worst case the ETA plans for)
    const c = clock();
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const p = new ProgressTracker(names.map((name) => ({ name, units: 3 })), c.now);
    p.untilStable(names, { minRepeats: 2, maxRepeats: 10_000, maxMs: 2000 });
    const seen: { t: number; fraction: number; basis?: string }[] = [];
    const step = (group: string, label: string, ms: number) => {
      p.beginUnit(group, label);
      for (let i = 0; i < 4; i++) {
        c.advance(ms / 4);
        seen.push({ t: c.now(), ...p.snapshot((i + 1) / 4) });
      }
      p.endUnit();
    };
    for (const g of names) step(g, 'cold', 300);
    for (const g of names) p.beginRepeats(g);
    for (let r = 1; r <= 20; r++) for (const g of names) step(g, `repeat ${r}`, 100);
    for (const g of names) p.endRepeats(g);
    const totalMs = c.now();
    const timed = seen.filter((s) => s.basis === 'time');
    // the ETA is known once every strategy's cold call was timed: from there the bar is the share of the run's time
    expect(timed.length).toBeGreaterThan(seen.length * 0.8);
    for (const s of timed) expect(Math.abs(s.fraction - s.t / totalMs), `at ${s.t} ms`).toBeLessThan(0.05);
    for (let i = 1; i < timed.length; i++) expect(timed[i]!.fraction).toBeGreaterThanOrEqual(timed[i - 1]!.fraction);
    // the steps are still counted beside it: 21 planned calls and one open unit per strategy
    expect(p.snapshot()).toMatchObject({ basis: 'time', fraction: 1, count: { done: 28, total: 28, unit: 'steps' } });
  });
});
