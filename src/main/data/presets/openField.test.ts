import { describe, expect, it } from 'vitest';
import { buildPlaceGrid2d } from '../grid';
import { OPEN_FIELD_ARENA, OPEN_FIELD_DEFAULTS, openFieldReplay, openFieldTrajectory, simulateOpenField, type OpenFieldOptions } from './openField';
import { Rng } from './rng';

/** the production shape's trajectory (1 418 s at 500 Hz), with few spikes so the test stays quick */
const OPTIONS: OpenFieldOptions = { ...OPEN_FIELD_DEFAULTS, seed: 11, spikes: 22 * 200 };

const bytes = (a: Float64Array | Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

function inArena(position: Float64Array): boolean {
  for (let i = 0; i < position.length; i += 2) {
    const [x, y] = [position[i]!, position[i + 1]!];
    if (!(x >= 0 && x <= OPEN_FIELD_ARENA.widthCm && y >= 0 && y <= OPEN_FIELD_ARENA.heightCm)) return false;
  }
  return true;
}

describe('simulateOpenField', () => {
  const r = simulateOpenField(OPTIONS);
  const spikes = [...r.electrodeSpikes()];

  it('holds an (n × 2) position per sample, and each electrode its count of sorted spikes with their marks', () => {
    expect(Object.keys(r).sort()).toEqual(['counts', 'electrodeSpikes', 'events', 'pauses', 'position', 'represented', 'time']);
    const n = OPEN_FIELD_DEFAULTS.durationS * OPEN_FIELD_DEFAULTS.positionHz;
    expect(r.time.length).toBe(n);
    expect(r.time[1]! - r.time[0]!).toBeCloseTo(1 / OPEN_FIELD_DEFAULTS.positionHz, 12);
    expect(r.position.length).toBe(2 * n);
    expect(r.represented.length).toBe(2 * n);
    expect(spikes).toHaveLength(OPEN_FIELD_DEFAULTS.electrodes);
    expect(r.counts.reduce((a, b) => a + b, 0)).toBe(OPTIONS.spikes);
    spikes.forEach((s, e) => {
      expect(s.times.length).toBe(r.counts[e]);
      expect(s.marks.length).toBe(r.counts[e]! * OPEN_FIELD_DEFAULTS.features);
      for (let i = 1; i < s.times.length; i++) expect(s.times[i]!).toBeGreaterThanOrEqual(s.times[i - 1]!);
      expect(s.times[s.times.length - 1]!).toBeLessThanOrEqual(r.time[n - 1]!);
    });
  });

  it('keeps the animal and every replayed sweep inside the arena', () => {
    expect(inArena(r.position)).toBe(true);
    expect(inArena(r.represented)).toBe(true);
  });

  it('covers the arena so that NLD\'s grid over it is 57 × 60 = 3 420 bins at 2 cm, nearly all of the inner ones visited', () => {
    const grid = buildPlaceGrid2d(r.position, 2);
    expect(grid.shape).toEqual([57, 60]);
    const interior = grid.interior.reduce((a, b) => a + b, 0);
    // the padding bins and the last bin of each axis are never interior: 55 × 58 at most
    expect(interior).toBeLessThanOrEqual(55 * 58);
    expect(interior).toBeGreaterThan(0.97 * 55 * 58);
  });

  it('replays straight sweeps from where the animal stands while it pauses, and changes nothing outside them', () => {
    expect(r.events.length).toBeGreaterThan(20);
    const hz = OPEN_FIELD_DEFAULTS.positionHz;
    const inEvent = new Uint8Array(r.time.length);
    for (const ev of r.events) {
      const [first, end] = [Math.round(ev.startS * hz), Math.round(ev.endS * hz)];
      expect(ev.endS - ev.startS).toBeGreaterThanOrEqual(0.1 - 1e-9);
      expect(ev.endS - ev.startS).toBeLessThanOrEqual(0.25 + 1e-9);
      expect(r.pauses.some(([a, b]) => a <= first && end <= b)).toBe(true);
      expect([r.represented[first * 2], r.represented[first * 2 + 1]]).toEqual(ev.fromCm);
      expect(Math.hypot(ev.toCm[0] - ev.fromCm[0], ev.toCm[1] - ev.fromCm[1])).toBeGreaterThan(20);
      let away = 0;
      for (let i = first; i < end; i++) {
        if (r.position[i * 2] !== ev.fromCm[0] || r.position[i * 2 + 1] !== ev.fromCm[1]) away++;
        inEvent[i] = 1;
      }
      expect(away).toBe(0);
    }
    let moved = 0;
    for (let i = 0; i < r.time.length; i++) {
      if (!inEvent[i] && (r.represented[i * 2] !== r.position[i * 2] || r.represented[i * 2 + 1] !== r.position[i * 2 + 1])) moved++;
    }
    expect(moved).toBe(0);
  });

  it('is the same, byte for byte, for a seed and differs between seeds', () => {
    const again = simulateOpenField(OPTIONS);
    expect(bytes(again.position).equals(bytes(r.position))).toBe(true);
    expect(bytes(again.represented).equals(bytes(r.represented))).toBe(true);
    expect(again.events).toEqual(r.events);
    [...again.electrodeSpikes()].forEach((s, e) => {
      expect(bytes(s.times).equals(bytes(spikes[e]!.times))).toBe(true);
      expect(bytes(s.marks).equals(bytes(spikes[e]!.marks))).toBe(true);
    });
    const other = simulateOpenField({ ...OPTIONS, seed: 12 });
    expect(bytes(other.position).equals(bytes(r.position))).toBe(false);
    expect(bytes(other.electrodeSpikes().next().value!.times).equals(bytes(spikes[0]!.times))).toBe(false);
  });
});

describe('openFieldReplay', () => {
  it('changes nothing at rate 0', () => {
    const t = openFieldTrajectory(120, 100, new Rng(3));
    const { represented, events } = openFieldReplay(t, 100, 0, new Rng(4));
    expect(events).toEqual([]);
    expect(represented).toEqual(t.position);
  });
});
