import { describe, expect, it } from 'vitest';
import { lapTrajectory, replayTrajectory, TRACK_CM } from './placeSimulation';
import { Rng } from './rng';

describe('replayTrajectory', () => {
  const hz = 500;
  const { position } = lapTrajectory(300, hz, new Rng(4));

  it('sweeps from the end the animal waits at, only while it waits, and leaves every other sample alone', () => {
    const { represented, events } = replayTrajectory(position, hz, 0.5, new Rng(9));
    expect(events.length).toBeGreaterThan(5);
    const inEvent = new Uint8Array(position.length);
    for (const ev of events) {
      const [first, end] = [Math.round(ev.startS * hz), Math.round(ev.endS * hz)];
      expect(ev.endS - ev.startS).toBeGreaterThanOrEqual(0.1 - 1e-9);
      expect(ev.endS - ev.startS).toBeLessThanOrEqual(0.25 + 1e-9);
      // the animal is still at one end throughout, and the represented position leaves it
      for (let i = first; i < end; i++) {
        expect(position[i]).toBe(ev.fromCm);
        inEvent[i] = 1;
      }
      expect([0, TRACK_CM]).toContain(ev.fromCm);
      expect(Math.abs(ev.toCm - ev.fromCm)).toBeGreaterThan(50);
      expect(ev.toCm).toBeGreaterThanOrEqual(0);
      expect(ev.toCm).toBeLessThanOrEqual(TRACK_CM);
    }
    for (let i = 0; i < position.length; i++) if (!inEvent[i]) expect(represented[i]).toBe(position[i]);
  });

  it('changes nothing at rate 0', () => {
    const { represented, events } = replayTrajectory(position, hz, 0, new Rng(9));
    expect(events).toEqual([]);
    expect(represented).toEqual(position);
  });
});
