import { describe, expect, it } from 'vitest';
import type { TimelineLane, TimelineSpan } from '../../../shared/api';
import { drawTracks, LABEL_PX, RULER_PX, visibleTracks, type DrawInput } from './drawTracks';
import { rulerTicks, scaleOf, tickLabel, usOf, xOf } from './timeScale';
import {
  contentHeight, defaultCollapsed, depthAt, electrodeGroupId, HEADER_PX, laneTree, lanesBetween, layoutTracks, processGroupId, ROW_PX, trackAt, TRACK_PAD_PX,
} from './trackLayout';
import { parentChain, spanAtTime, spansByLane } from './trackSpans';
import { spanMatches, spanText } from '../lib/spanText';

/** an engine with a main thread and one worker, each with `n` electrode lanes, and the service */
function lanes(n: number): TimelineLane[] {
  const out: TimelineLane[] = [{ id: 'service:1', name: 'service', process: 'service', thread: 1 }];
  for (const [tid, thread] of [[1, 'main'], [2, 'worker 1']] as const) {
    out.push({ id: `engine:${tid}`, name: `engine · ${thread}`, process: 'engine', thread: tid });
    for (let e = 0; e < n; e++) out.push({ id: `engine:${tid}/electrode ${e}`, name: `engine · ${thread} · electrode ${e}`, process: 'engine', thread: tid, electrode: { index: e } });
  }
  return out;
}

const span = (lane: string, name: string, startUs: number, durUs: number, depth: number, merged = 1): TimelineSpan => ({ lane, name, cat: 'engine', startUs, durUs, depth, merged });

describe('track layout', () => {
  it('groups lanes as processes › threads › electrodes', () => {
    const tree = laneTree(lanes(3));
    expect(tree.map((p) => p.process)).toEqual(['service', 'engine']);
    expect(tree[1]!.threads.map((t) => [t.lane.id, t.electrodes.length])).toEqual([['engine:1', 3], ['engine:2', 3]]);
  });

  it('gives an electrode lane whose thread drew nothing a thread track of its own', () => {
    const tree = laneTree([{ id: 'engine:5/electrode 0', name: 'engine · worker 4 · electrode 0', process: 'engine', thread: 5, electrode: { index: 0 } }]);
    expect(tree[0]!.threads[0]!.lane).toEqual({ id: 'engine:5', name: 'engine · worker 4', process: 'engine', thread: 5 });
  });

  it('labels an electrode track with the dataset\'s name for it, its index in the tooltip, and finds its thread', () => {
    const named: TimelineLane[] = [
      { id: 'engine:2', name: 'engine · worker 1', process: 'engine', thread: 2 },
      { id: 'engine:2/electrode 2', name: 'engine · worker 1 · tet03', process: 'engine', thread: 2, electrode: { index: 2, name: 'tet03' } },
      { id: 'engine:3/electrode 0', name: 'engine · worker 2 · tet01', process: 'engine', thread: 3, electrode: { index: 0, name: 'tet01' } },
    ];
    const tracks = layoutTracks({ lanes: named, depthOf: () => 1, isCollapsed: () => false });
    expect(tracks.filter((t) => t.kind === 'electrode').map((t) => [t.label, t.title])).toEqual([
      ['tet03', 'tet03: electrode index 2 in the dataset'], ['tet01', 'tet01: electrode index 0 in the dataset'],
    ]);
    expect(tracks.filter((t) => t.kind === 'thread').map((t) => [t.id, t.label])).toEqual([['engine:2', 'worker 1'], ['engine:3', 'worker 2']]);
  });

  it('puts the external engines after the engine under a header of their own, a track per engine named by the engine', () => {
    const withEngines: TimelineLane[] = [
      ...lanes(0),
      { id: 'external:1', name: 'external · numpy', process: 'external', thread: 1 },
      { id: 'external:2', name: 'external · nld:clusterless_kde_log:x64', process: 'external', thread: 2 },
      { id: 'external:2/electrode 0', name: 'external · nld:clusterless_kde_log:x64 · tet01', process: 'external', thread: 2, electrode: { index: 0, name: 'tet01' } },
    ];
    expect(laneTree(withEngines).map((p) => p.process)).toEqual(['service', 'engine', 'external']);
    const tracks = layoutTracks({ lanes: withEngines, depthOf: () => 1, isCollapsed: () => false });
    expect(tracks.slice(-5).map((t) => [t.kind, t.label])).toEqual([
      ['process', 'external engines'], ['thread', 'numpy'], ['thread', 'nld:clusterless_kde_log:x64'], ['electrode-group', '1 electrode'], ['electrode', 'tet01'],
    ]);
    expect(tracks.find((t) => t.kind === 'process' && t.label === 'external engines')!.id).toBe(processGroupId('external'));
  });

  it('stacks fixed-height tracks: headers, threads with a row per depth, electrodes under their group', () => {
    const depth = new Map([['engine:1', 4], ['engine:1/electrode 0', 2]]);
    const tracks = layoutTracks({ lanes: lanes(2), depthOf: (l) => depth.get(l) ?? 1, isCollapsed: () => false });
    expect(tracks.map((t) => [t.kind, t.label])).toEqual([
      ['process', 'service'], ['thread', 'service'],
      ['process', 'engine'], ['thread', 'main'], ['electrode-group', '2 electrodes'], ['electrode', 'electrode 0'], ['electrode', 'electrode 1'],
      ['thread', 'worker 1'], ['electrode-group', '2 electrodes'], ['electrode', 'electrode 0'], ['electrode', 'electrode 1'],
    ]);
    const main = tracks[3]!;
    expect(main.height).toBe(4 * ROW_PX + 2 * TRACK_PAD_PX);
    expect(tracks[4]!.height).toBe(HEADER_PX);
    tracks.slice(1).forEach((t, i) => expect(t.top).toBe(tracks[i]!.top + tracks[i]!.height));
    expect(contentHeight(tracks)).toBe(tracks.at(-1)!.top + tracks.at(-1)!.height);
  });

  it('folds a collapsed electrode group into one summary row over all its lanes, and a collapsed process to its header', () => {
    const collapsed = new Set([electrodeGroupId('engine:1'), processGroupId('service')]);
    const tracks = layoutTracks({ lanes: lanes(64), depthOf: () => 3, isCollapsed: (g) => collapsed.has(g) });
    const group = tracks.find((t) => t.id === electrodeGroupId('engine:1'))!;
    expect(group).toMatchObject({ collapsed: true, depths: 1, label: '64 electrodes' });
    expect(group.lanes).toHaveLength(64);
    expect(tracks.filter((t) => t.kind === 'electrode' && t.id.startsWith('engine:1/'))).toHaveLength(0);
    expect(tracks.filter((t) => t.kind === 'electrode' && t.id.startsWith('engine:2/'))).toHaveLength(64);
    expect(tracks.filter((t) => t.id === 'service:1')).toHaveLength(0);
    expect(tracks.find((t) => t.id === processGroupId('service'))!.areaLanes).toEqual(['service:1']);
  });

  it('collapses electrode groups by default only when everything open would not fit the viewport', () => {
    expect(defaultCollapsed({ lanes: lanes(2), depthOf: () => 1 }, 2000).size).toBe(0);
    expect([...defaultCollapsed({ lanes: lanes(64), depthOf: () => 2 }, 600)]).toEqual([electrodeGroupId('engine:1'), electrodeGroupId('engine:2')]);
  });

  it('finds the track and depth under a y, and the lanes an area covers', () => {
    const tracks = layoutTracks({ lanes: lanes(2), depthOf: () => 2, isCollapsed: () => false });
    const main = tracks.find((t) => t.id === 'engine:1')!;
    expect(trackAt(tracks, main.top + 1)).toBe(main);
    expect(trackAt(tracks, -1)).toBeNull();
    expect(trackAt(tracks, contentHeight(tracks) + 1)).toBeNull();
    expect(depthAt(main, main.top + TRACK_PAD_PX + ROW_PX + 1)).toBe(1);
    expect(depthAt(main, main.top + 1)).toBeNull();
    // from the main thread to its first electrode: the thread's own lane and the group's lanes once each
    const e0 = tracks.find((t) => t.id === 'engine:1/electrode 0')!;
    expect(lanesBetween(tracks, main.top + 2, e0.top + 2)).toEqual(['engine:1', 'engine:1/electrode 0', 'engine:1/electrode 1']);
  });
});

describe('time scale', () => {
  it('maps time to pixels and back', () => {
    const s = scaleOf({ startUs: 1000, endUs: 3000 }, 200, 1000);
    expect(xOf(s, 2000)).toBe(700);
    expect(usOf(s, 700)).toBe(2000);
  });

  it('puts round ticks about a hundred pixels apart', () => {
    const ticks = rulerTicks(scaleOf({ startUs: 0, endUs: 1_000_000 }, 0, 1000));
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(ticks.length).toBeLessThanOrEqual(12);
    expect(ticks[1]!.x - ticks[0]!.x).toBeCloseTo(ticks[2]!.x - ticks[1]!.x, 6);
    expect(ticks.map((t) => t.label)).toContain('0.4 s');
  });

  it('labels ticks with the digits their step needs', () => {
    const labels = rulerTicks(scaleOf({ startUs: 5_300_000, endUs: 5_309_000 }, 0, 1000)).map((t) => t.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain('5302 ms');
    expect(tickLabel(1_500_000, 500_000)).toBe('1.5 s');
    expect(tickLabel(12_345, 5)).toBe('12345 µs');
    expect(tickLabel(2_000_000, 2_000_000)).toBe('2 s');
  });
});

describe('spans of an answer', () => {
  const spans = [
    span('engine:1', 'run', 0, 1000, 0),
    span('engine:1', 'decode', 100, 800, 1),
    span('engine:1', 'electrode 3', 200, 300, 2),
    span('engine:1/electrode 3', 'gemm', 210, 50, 0),
    span('engine:1/electrode 3', 'exp', 220, 10, 1),
    span('engine:1/electrode 3', 'tiny', 400, 0.5, 1),
    span('engine:1', '12 spans', 900, 50, 1, 12),
  ];
  const byLane = spansByLane(spans);
  const spanLanes: TimelineLane[] = [
    { id: 'engine:1', name: 'engine · main', process: 'engine', thread: 1 },
    { id: 'engine:1/electrode 3', name: 'engine · main · electrode 3', process: 'engine', thread: 1, electrode: { index: 3 } },
  ];

  it('finds the box under a time on a depth, the narrowest when boxes are close', () => {
    expect(spanAtTime(byLane, ['engine:1'], 1, 500, 0)!.name).toBe('decode');
    expect(spanAtTime(byLane, ['engine:1/electrode 3'], 1, 225, 0)!.name).toBe('exp');
    expect(spanAtTime(byLane, ['engine:1/electrode 3'], 1, 300, 0)).toBeNull();
    // a sliver is found within the slack
    expect(spanAtTime(byLane, ['engine:1/electrode 3'], 1, 401.5, 2)!.name).toBe('tiny');
  });

  it('gives the chain a span sits in, through its thread into the electrode lane', () => {
    const exp = spans[4]!;
    expect(parentChain(byLane, exp, spanLanes).map((s) => s.name)).toEqual(['run', 'decode', 'electrode 3', 'gemm']);
    expect(parentChain(byLane, spans[1]!, spanLanes).map((s) => s.name)).toEqual(['run']);
  });
});

/** a 2D context that records what was drawn: enough to check the painter's decisions */
function recordingContext() {
  const rects: { x: number; y: number; w: number; h: number; fill: string }[] = [];
  const texts: string[] = [];
  const ctx = {
    fillStyle: '', strokeStyle: '', lineWidth: 1, globalAlpha: 1, font: '', textBaseline: '',
    fillRect(x: number, y: number, w: number, h: number) {
      rects.push({ x, y, w, h, fill: String(this.fillStyle) });
    },
    fillText(t: string) {
      texts.push(t);
    },
    strokeRect() {}, save() {}, restore() {}, beginPath() {}, rect() {}, clip() {}, moveTo() {}, lineTo() {}, fill() {},
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, rects, texts };
}

describe('painting', () => {
  const colors = { background: '#bg', surface: '#sf', text: '#tx', muted: '#mu', border: '#bd' };

  function input(spans: TimelineSpan[], over: Partial<DrawInput> = {}): DrawInput {
    const ls: TimelineLane[] = [{ id: 'engine:1', name: 'engine · main', process: 'engine', thread: 1 }];
    const tracks = layoutTracks({ lanes: ls, depthOf: () => 2, isCollapsed: () => false });
    return {
      tracks, byLane: spansByLane(spans), instants: [], scale: scaleOf({ startUs: 0, endUs: 1000 }, LABEL_PX, 1000), scrollTop: 0,
      widthPx: LABEL_PX + 1000, heightPx: 300, colors, search: '', selected: null, area: null, ...over,
    };
  }

  it('draws one box per span wider than a pixel, and one per pixel column for slivers', () => {
    const slivers = Array.from({ length: 1000 }, (_, i) => span('engine:1', 'k', i * 0.1, 0.05, 1));
    const { ctx, rects } = recordingContext();
    drawTracks(ctx, input([span('engine:1', 'run', 0, 1000, 0), ...slivers]));
    const boxes = rects.filter((r) => r.h === ROW_PX - 2);
    // 1000 slivers over 100 µs = 100 px: at most one rectangle per pixel column
    expect(boxes.length).toBeGreaterThan(50);
    expect(boxes.length).toBeLessThanOrEqual(1 + 101);
  });

  it('labels wide boxes with their names, not slivers', () => {
    const { ctx, texts } = recordingContext();
    drawTracks(ctx, input([span('engine:1', 'decode', 0, 500, 0), span('engine:1', 'x', 600, 1, 0)]));
    expect(texts).toContain('decode');
    expect(texts).not.toContain('x');
  });

  it('draws only the tracks inside the viewport', () => {
    const tracks = layoutTracks({ lanes: lanes(64), depthOf: () => 2, isCollapsed: () => false });
    const shown = visibleTracks(tracks, 500, 300);
    expect(shown.length).toBeGreaterThan(3);
    expect(shown.length).toBeLessThan(20);
    expect(shown.every((t) => t.top + t.height > 500 && t.top < 500 + 300 - RULER_PX)).toBe(true);
  });
});

describe('span text', () => {
  it('writes a span by its stable name and which one it was, the electrode by the dataset\'s name', () => {
    const electrode = { name: 'electrode', args: { electrodeIndex: 2, electrode: 'tet03', strategy: 'compensated' } };
    expect(spanText(electrode)).toBe('electrode tet03');
    expect(spanText({ name: 'block', args: { block: 4, spikes: 100 } })).toBe('block 4');
    expect(spanText({ name: 'windows', args: { firstWindow: 0, lastWindow: 14 } })).toBe('windows 0–14');
    expect(spanText({ name: 'windows', args: { firstWindow: 3, lastWindow: 3 } })).toBe('window 3');
    expect(spanText({ name: 'repeat', args: { repeat: 2 } })).toBe('repeat 2');
    expect(spanText({ name: 'electrode 3', args: undefined })).toBe('electrode 3');
    expect(spanText({ name: 'mark-kernel', args: { work: 1 } })).toBe('mark-kernel');
    expect(spanMatches(electrode, 'tet03')).toBe(true);
    expect(spanMatches(electrode, 'electrode')).toBe(true);
    expect(spanMatches(electrode, 'tet04')).toBe(false);
  });
});
