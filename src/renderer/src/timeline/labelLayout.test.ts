import { describe, expect, it } from 'vitest';
import type { TimelineLane, TimelineSpan } from '../../../shared/api';
import { drawTracks, LABEL_PX, RIGHT_PAD_PX, RULER_PX, type DrawInput } from './drawTracks';
import { instantStyle, WARNING_COLOR } from './drawInstants';
import { CHAR_PX, placeRowLabels } from './labelLayout';
import { rulerTicks, scaleOf } from './timeScale';
import { electrodeGroupId, layoutTracks } from './trackLayout';
import { spansByLane } from './trackSpans';

/** a 2D context that keeps where each text went and the colour of each filled path */
function recordingContext() {
  const texts: { text: string; x: number; y: number; align: string }[] = [];
  const paths: { fill: string; alpha: number }[] = [];
  const ctx = {
    fillStyle: '', strokeStyle: '', lineWidth: 1, globalAlpha: 1, font: '', textBaseline: '', textAlign: 'left',
    fillText(text: string, x: number, y: number) {
      texts.push({ text, x, y, align: this.textAlign });
    },
    fill() {
      paths.push({ fill: String(this.fillStyle), alpha: this.globalAlpha });
    },
    fillRect() {}, strokeRect() {}, save() {}, restore() {}, beginPath() {}, rect() {}, clip() {}, moveTo() {}, lineTo() {},
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, texts, paths };
}

/** the text's box on its line, with the painter's own glyph estimate */
const boxOf = (t: { text: string; x: number }): [number, number] => [t.x, t.x + t.text.length * CHAR_PX];

function expectNoOverlap(texts: readonly { text: string; x: number; y: number }[]): void {
  const byLine = new Map<number, [number, number][]>();
  for (const t of texts) byLine.set(t.y, [...(byLine.get(t.y) ?? []), boxOf(t)]);
  for (const boxes of byLine.values()) {
    boxes.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]![0], `labels at ${JSON.stringify(boxes.slice(i - 1, i + 1))}`).toBeGreaterThanOrEqual(boxes[i - 1]![1]);
  }
}

const colors = { background: '#bg', surface: '#sf', text: '#tx', muted: '#mu', border: '#bd' };
const span = (lane: string, name: string, startUs: number, durUs: number, merged = 1): TimelineSpan => ({ lane, name, cat: 'engine', startUs, durUs, depth: 0, merged });
const LANES: TimelineLane[] = [
  { id: 'engine:2', name: 'engine · worker 0', process: 'engine', thread: 2 },
  ...[0, 1, 2].map((e) => ({ id: `engine:2/electrode ${e}`, name: `engine · worker 0 · electrode ${e}`, process: 'engine' as const, thread: 2, electrode: { index: e } })),
];

function input(spans: TimelineSpan[], over: Partial<DrawInput> = {}): DrawInput {
  // the worker's electrodes folded into one row: every electrode's boxes on it, overlapping
  const tracks = layoutTracks({ lanes: LANES, depthOf: () => 1, isCollapsed: (id) => id === electrodeGroupId('engine:2') });
  return {
    tracks, byLane: spansByLane(spans), instants: [], scale: scaleOf({ startUs: 0, endUs: 1000 }, LABEL_PX, 800), scrollTop: 0,
    widthPx: LABEL_PX + 800 + RIGHT_PAD_PX, heightPx: 300, colors, search: '', selected: null, area: null, ...over,
  };
}

describe('labels that never print over each other', () => {
  it('keeps merged boxes of a folded electrode group from overprinting ("1258 spans" over "187 spans")', () => {
    const { ctx, texts } = recordingContext();
    drawTracks(ctx, input([
      span('engine:2/electrode 0', '1258 spans', 0, 600, 1258),
      span('engine:2/electrode 1', '187 spans', 40, 500, 187),
      span('engine:2/electrode 2', '96 spans', 60, 900, 96),
    ]));
    const spanTexts = texts.filter((t) => t.y > RULER_PX);
    expect(spanTexts.length).toBeGreaterThan(0);
    expectNoOverlap(spanTexts);
  });

  it('labels boxes of one lane as before: each in its own box', () => {
    expect(placeRowLabels([{ x: 0, w: 100, text: 'decode' }, { x: 100, w: 100, text: 'local' }], 34).map((l) => l.text)).toEqual(['decode', 'local']);
    expect(placeRowLabels([{ x: 0, w: 100, text: 'decode' }, { x: 100, w: 10, text: 'x' }], 34).map((l) => l.text)).toEqual(['decode']);
  });

  it('thins ruler labels at any zoom and width, none past the canvas edge', () => {
    const windows = [[0, 1_258_000_000], [0, 2_010_000], [1_258_000_000, 1_258_000_150], [187_000_000, 1_258_000_000], [5_300_000, 5_309_000]] as const;
    for (const widthPx of [90, 160, 260, 430, 868, 1508]) {
      for (const [startUs, endUs] of windows) {
        const { ctx, texts } = recordingContext();
        const canvasPx = LABEL_PX + widthPx + RIGHT_PAD_PX;
        drawTracks(ctx, input([], { scale: scaleOf({ startUs, endUs }, LABEL_PX, widthPx), widthPx: canvasPx }));
        const ruler = texts.filter((t) => t.y < RULER_PX);
        expectNoOverlap(ruler);
        for (const t of ruler) expect(boxOf(t)[1], `"${t.text}" at ${widthPx} px`).toBeLessThanOrEqual(canvasPx);
      }
    }
    // thinning keeps the ticks (the grid) and labels every other one, not a ragged few
    const ticks = rulerTicks(scaleOf({ startUs: 1_258_000_000, endUs: 1_258_000_150 }, 0, 160), 172);
    expect(ticks.length).toBeGreaterThan(ticks.filter((t) => t.label !== '').length);
  });
});

describe('instants', () => {
  it('draws routine notes quietly and keeps red for warnings', () => {
    expect(instantStyle('subnormal flush', '#mu').color).toBe('#mu');
    expect(instantStyle('series coverage', '#mu').color).not.toBe(WARNING_COLOR);
    expect(instantStyle('worker crashed', '#mu').color).toBe(WARNING_COLOR);
    const { ctx, paths } = recordingContext();
    drawTracks(ctx, input([], {
      instants: [
        { lane: 'engine:2', name: 'subnormal flush', tsUs: 100 },
        { lane: 'engine:2', name: 'series coverage', tsUs: 200 },
        { lane: 'engine:2', name: 'fit failed', tsUs: 300 },
      ],
    }));
    expect(paths.map((p) => p.fill).sort()).toEqual(['#e15759', '#mu', '#mu']);
    expect(paths.find((p) => p.fill === '#mu')!.alpha).toBeLessThan(1);
  });
});
