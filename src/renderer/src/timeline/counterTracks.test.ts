import { describe, expect, it } from 'vitest';
import { counterText, counterTracksOf, foldedCounterTracks, trackShape, valueAt } from './counterTracks';
import { scaleOf } from './timeScale';

const points: [number, number][] = [[0, 100], [1_000, 300], [2_000, 200], [3_000, 400]];

describe('counter tracks', () => {
  it('reads a counter as the last sample at or before a moment, nothing before the first', () => {
    expect(valueAt(points, -1)).toBeNull();
    expect(valueAt(points, 0)).toBe(100);
    expect(valueAt(points, 1_500)).toBe(300);
    expect(valueAt(points, 9_999)).toBe(400);
  });

  it('draws steps over the visible window on its own scale, from the sample in force at its start', () => {
    const shape = trackShape(points, scaleOf({ startUs: 1_500, endUs: 2_500 }, 0, 100), 30)!;
    // 300 is in force at 1.5 ms, 200 from 2 ms: the window's own maximum (300) fills the track
    expect(shape.max).toBe(300);
    expect(shape.corners[0]).toEqual([0, 3]);
    expect(shape.corners.at(-1)![0]).toBe(100);
    const ys = shape.corners.map(([, y]) => y);
    expect(Math.min(...ys)).toBe(3);
    expect(Math.max(...ys)).toBeCloseTo(30 - 3 - (200 / 300) * 24 + 0, 6);
  });

  it('draws nothing of a counter whose samples all come after the window', () => {
    expect(trackShape(points, scaleOf({ startUs: -2_000, endUs: -1 }, 0, 100), 30)).toBeNull();
  });

  it('keeps one rise per pixel column, at its largest value, so a peak between samples survives', () => {
    const dense: [number, number][] = Array.from({ length: 1_000 }, (_, i) => [i, i === 500 ? 1_000 : 10]);
    const shape = trackShape(dense, scaleOf({ startUs: 0, endUs: 1_000 }, 0, 10), 30)!;
    expect(shape.corners.length).toBeLessThanOrEqual(2 * 11 + 1);
    expect(Math.min(...shape.corners.map(([, y]) => y))).toBe(3);
  });

  it('shows memory and tensor series by their labels, leaving out the engine RSS the service samples better', () => {
    const tracks = counterTracksOf([
      { name: 'engine memory (MB)', key: 'rss', points: [[0, 500]] },
      { name: 'memory (MB)', key: 'rss', proc: 'engine', points: [[0, 480]] },
      { name: 'tensors', key: 'count', points: [[0, 12]] },
      { name: 'tensors', key: 'MB', points: [] },
    ]);
    expect(tracks.map((t) => [t.label, t.unit])).toEqual([['engine RSS (sampled by service)', 'MB'], ['tensor count', '']]);
    const withEngines = counterTracksOf([
      { name: 'cmd:python3 my.py memory (MB)', key: 'rss', proc: 'external', points: [[0, 30]] },
      { name: 'tensors', key: 'count', points: [[0, 12]] },
      { name: 'engine memory (MB)', key: 'rss', points: [[0, 500]] },
      { name: 'numpy memory (MB)', key: 'rss', points: [[0, 40]] },
    ]);
    expect(withEngines.map((t) => t.label)).toEqual([
      'engine RSS (sampled by service)', 'tensor count', 'cmd:python3 my.py RSS (process tree)', 'numpy RSS (process tree)',
    ]);
    const counted = counterTracksOf([
      { name: 'nld:decoder · xla compilations', key: 'value', points: [[0, 3], [5_000, 256]] },
      { name: 'nld:decoder memory (MB)', key: 'rss', points: [[0, 900], [5_000, 950]] },
      { name: 'nld:decoder · cache hits', key: 'value', points: [] },
    ]);
    expect(counted.map((t) => [t.label, t.unit])).toEqual([['nld:decoder RSS (process tree)', 'MB'], ['nld:decoder · xla compilations', '']]);
    expect(counterText(512.345, 'MB')).toBe('512 MB');
    expect(counterText(1234, '')).toBe('1,234');
    expect(counterText(null, 'MB')).toBe('–');
  });

  it('puts counters that never moved below those that did, and folds them under "show all"', () => {
    const moving: [number, number][] = [[0, 1], [1_000, 30], [2_000, 5]];
    const zeros: [number, number][] = [[0, 0], [1_000, 0], [2_000, 0]];
    const tracks = counterTracksOf([
      { name: 'tensors', key: 'MB', points: zeros },
      { name: 'tensors', key: 'count', points: [[0, 7], [1_000, 7]] },
      { name: 'engine memory (MB)', key: 'rss', points: moving },
      { name: 'worker 0 tensors', key: 'MB', points: moving },
      { name: 'memory (MB)', key: 'heapUsed', proc: 'engine', points: [[0, 30], [1_000, 30.01]] },
    ]);
    expect(tracks.map((t) => [t.label, t.flat])).toEqual([
      ['engine RSS (sampled by service)', false], ['worker 0 tensor bytes', false],
      ['engine JS heap', true], ['tensor bytes', true], ['tensor count', true],
    ]);
    expect(foldedCounterTracks(tracks, 6).map((t) => t.label)).toEqual(['engine RSS (sampled by service)', 'worker 0 tensor bytes']);
    expect(foldedCounterTracks(tracks.filter((t) => t.flat), 6)).toHaveLength(1);
  });

  it('splits a long label so the column reads it whole, the qualifier on a line of its own', () => {
    const [rss, tree, xla] = counterTracksOf([
      { name: 'engine memory (MB)', key: 'rss', points: points },
      { name: 'nld:decoder · xla compilations', key: 'value', points: points },
      { name: 'numpy memory (MB)', key: 'rss', points: points },
    ]);
    expect([rss!.name, rss!.note, rss!.label]).toEqual(['engine RSS', 'sampled by service', 'engine RSS (sampled by service)']);
    expect([tree!.name, tree!.note]).toEqual(['numpy RSS', 'process tree']);
    expect([xla!.name, xla!.note]).toEqual(['xla compilations', 'nld:decoder']);
    // 12 px text beside a value such as "728 MB" in a column of 200 px: about 20 characters fit
    for (const t of [rss!, xla!, tree!]) expect(t.name.length).toBeLessThanOrEqual(20);
  });
});
