import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { base64ToBlob, base64ToBytes } from './download';
import { errorText, isCancellation } from './errorText';
import { droppedFilePath } from './droppedFile';
import { formatBinaryTick, formatTimeRange } from './format';
import { withDecodingWindow } from './previewWindow';
import { nextThemeChoice, readThemeChoice, resolveTheme, saveThemeChoice, THEME_STORAGE_KEY } from './theme';
import { clampWindow, fetchWindow, panWindow, wasdMove, zoomWindow } from './timeWindow';
import { debounce, throttleAsync } from './timing';

describe('errorText', () => {
  it('reads code, message and hint; flags cancellation', () => {
    expect(errorText({ code: 'E020', message: 'lengths differ.', location: { hint: 'Re-export the file.' } })).toEqual({ code: 'E020', message: 'lengths differ. Re-export the file.' });
    expect(errorText('boom')).toEqual({ code: 'INTERNAL', message: 'boom' });
    expect(isCancellation({ code: 'CANCELLED' })).toBe(true);
    expect(isCancellation(new Error('x'))).toBe(false);
  });
});

describe('theme', () => {
  it('follows the OS unless chosen, and remembers the choice', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(readThemeChoice(storage)).toBe('system');
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('light', true)).toBe('light');
    saveThemeChoice(storage, 'dark');
    expect(store.get(THEME_STORAGE_KEY)).toBe('dark');
    expect(readThemeChoice(storage)).toBe('dark');
    expect(['system', 'light', 'dark'].map((c) => nextThemeChoice(c as 'system'))).toEqual(['light', 'dark', 'system']);
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    expect(readThemeChoice(broken)).toBe('system');
    expect(() => saveThemeChoice(broken, 'light')).not.toThrow();
  });
});

describe('timeWindow', () => {
  const w = { startUs: 400, endUs: 600 };
  it('W/S zoom around the centre, A/D pan, all kept inside the run', () => {
    expect(wasdMove('w', w, 1000)).toEqual({ startUs: 420, endUs: 580 });
    expect(wasdMove('S', w, 1000)).toEqual({ startUs: 375, endUs: 625 });
    expect(wasdMove('a', w, 1000)).toEqual({ startUs: 360, endUs: 560 });
    expect(wasdMove('d', { startUs: 900, endUs: 1000 }, 1000)).toEqual({ startUs: 900, endUs: 1000 });
    expect(wasdMove('x', w, 1000)).toBeNull();
  });
  it('zooms around a focus point and never beyond the run', () => {
    expect(zoomWindow(w, 0.5, 1000, 400)).toEqual({ startUs: 400, endUs: 500 });
    expect(zoomWindow(w, 100, 1000)).toEqual({ startUs: 0, endUs: 1000 });
    expect(panWindow({ startUs: 0, endUs: 100 }, -1, 1000)).toEqual({ startUs: 0, endUs: 100 });
    expect(clampWindow({ startUs: 5, endUs: 5 }, 1000)).toEqual({ startUs: 5, endUs: 6 });
  });
  it('fetches half a width more each side', () => {
    expect(fetchWindow(w, 1000)).toEqual({ startUs: 300, endUs: 700 });
    expect(fetchWindow({ startUs: 0, endUs: 200 }, 250)).toEqual({ startUs: 0, endUs: 250 });
  });
});

describe('timing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('debounce runs once after the quiet time; flush runs now', () => {
    const fn = vi.fn();
    const d = debounce(fn, 100);
    d();
    vi.advanceTimersByTime(50);
    d();
    vi.advanceTimersByTime(99);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    d();
    d.flush();
    expect(fn).toHaveBeenCalledTimes(2);
    d();
    d.cancel();
    vi.advanceTimersByTime(200);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('throttleAsync runs at once, then at most once per interval, never overlapping', async () => {
    let active = 0;
    let maxActive = 0;
    const starts: number[] = [];
    const task = async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      starts.push(Date.now());
      await new Promise((r) => setTimeout(r, 150));
      active--;
    };
    const t = throttleAsync(task, 100);
    const t0 = Date.now();
    for (let i = 0; i < 10; i++) {
      t();
      await vi.advanceTimersByTimeAsync(30);
    }
    await vi.advanceTimersByTimeAsync(1000);
    expect(maxActive).toBe(1);
    expect(starts[0]).toBe(t0);
    // 300 ms of requests with a 150 ms task: the first, one while it ran, and the trailing one
    expect(starts.length).toBeGreaterThanOrEqual(2);
    expect(starts.length).toBeLessThanOrEqual(3);
    t.cancel();
  });
});

describe('download', () => {
  it('decodes base64 into bytes and a typed blob', async () => {
    expect([...base64ToBytes(btoa('ab\u0001'))]).toEqual([97, 98, 1]);
    const blob = base64ToBlob(btoa('hello'), 'application/json');
    expect(blob.type).toBe('application/json');
    expect(await blob.text()).toBe('hello');
  });
});

describe('binary axis ticks', () => {
  it('reads powers of two as round binary sizes', () => {
    expect(formatBinaryTick(1024)).toBe('1 KiB');
    expect(formatBinaryTick(32 * 1024)).toBe('32 KiB');
    expect(formatBinaryTick(512 * 1024 * 1024)).toBe('512 MiB');
    expect(formatBinaryTick(1.5 * 1024 ** 3)).toBe('1.5 GiB');
  });
});

describe('droppedFilePath', () => {
  const file = new File(['x'], 'session.npz');
  it("asks the desktop bridge, then a legacy File.path, and gives null in a browser", () => {
    expect(droppedFilePath(file, { pathForFile: () => '/data/session.npz' })).toBe('/data/session.npz');
    expect(droppedFilePath(Object.assign(new File([], 'a.npz'), { path: '/old/a.npz' }), { pathForFile: () => '' })).toBe('/old/a.npz');
    expect(droppedFilePath(file, undefined)).toBeNull();
  });
});

describe('withDecodingWindow', () => {
  it("attaches the summary's decoding grid span to the preview, and leaves inspections without one alone", () => {
    const preview = { positionTime: [0, 100], position: [0, 100], spikeTimes: [] };
    const summary = { timeSpan: [0, 20], nTime: 100 } as unknown as NonNullable<Parameters<typeof withDecodingWindow>[0]['summary']>;
    const source = { kind: 'preset', name: 'small', seed: 1, features: 2, featureScale: 1 } as const;
    expect(withDecodingWindow({ source, summary, preview, findings: [] }).preview?.decoding).toEqual({ startS: 0, endS: 20, rows: 100 });
    const none = { source, summary: null, preview, findings: [] };
    expect(withDecodingWindow(none)).toBe(none);
  });
});

describe('formatTimeRange', () => {
  it('tells the ends of a zoomed range apart, and keeps a long one whole', () => {
    expect(formatTimeRange(1161.25, 1161.75)).toBe('1161.25–1161.75');
    expect(formatTimeRange(1161.2, 1163.2)).toBe('1161.2–1163.2');
    expect(formatTimeRange(1000, 1258)).toBe('1000–1258');
    expect(formatTimeRange(5, 5)).toBe('5–5');
    expect(formatTimeRange(0.0012, 0.0019)).toBe('0.00120–0.00190');
    expect(formatTimeRange(Number.NaN, 3)).toBe('NaN–3');
  });
});
