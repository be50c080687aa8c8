/**
 * Paints the track view on a 2D canvas: the ruler on top, then the tracks visible at the current
 * scroll, each with its spans stacked by depth (the labels beside them are DOM). One pass per frame over the
 * spans of the visible tracks; boxes narrower than a pixel that fall on the pixel already painted
 * on their row are skipped, so a dense row costs one rectangle per pixel column at most. Text is
 * placed by labelLayout first, so labels never print over each other.
 */
import { IN_PROGRESS_ARG, type TimelineSpan } from '../../../shared/api';
import { spanMatches, spanText } from '../lib/spanText';
import { colorForName } from '../charts/palette';
import { drawInstants, type InstantMark } from './drawInstants';
import { LABEL_INSET_PX, placeRowLabels, textWidthPx, type RowBox } from './labelLayout';
import { rulerTicks, xOf, type TimeScale } from './timeScale';
import { ROW_PX, TRACK_PAD_PX, type Track } from './trackLayout';
import type { SpansByLane } from './trackSpans';

export const RULER_PX = 26;
export const LABEL_PX = 200;
/** room right of the plot, so the last tick's label fits */
export const RIGHT_PAD_PX = 12;
/** boxes at least this wide carry their name */
const MIN_LABEL_PX = 34;

export interface TrackColors {
  background: string;
  surface: string;
  text: string;
  muted: string;
  border: string;
}

/** an area selection: a time range over the tracks between two content y's */
export interface TrackArea {
  startUs: number;
  endUs: number;
  y0: number;
  y1: number;
}

export interface DrawInput {
  tracks: readonly Track[];
  byLane: SpansByLane;
  instants: readonly InstantMark[];
  scale: TimeScale;
  scrollTop: number;
  widthPx: number;
  heightPx: number;
  colors: TrackColors;
  /** lower-cased search text; '' when not searching */
  search: string;
  selected: TimelineSpan | null;
  area: TrackArea | null;
}

const isOpen = (s: TimelineSpan): boolean => s.args?.[IN_PROGRESS_ARG] === true;

export function sameSpan(a: TimelineSpan | null, b: TimelineSpan): boolean {
  return a !== null && a.lane === b.lane && a.startUs === b.startUs && a.depth === b.depth && a.name === b.name;
}

function drawSpans(ctx: CanvasRenderingContext2D, t: Track, y: number, input: DrawInput): void {
  const { scale, search, selected } = input;
  const left = scale.x0;
  const right = scale.x0 + scale.widthPx;
  // the last painted pixel column per depth: slivers that land on it add nothing visible
  const lastPx = new Float64Array(t.depths).fill(-Infinity);
  // per depth, every box drawn with what it would say: the labels are placed once the row is known
  const rows: RowBox[][] = Array.from({ length: t.depths }, () => []);
  const outlines: [number, number, number, number, boolean][] = [];
  for (const lane of t.lanes) {
    for (const s of input.byLane.get(lane) ?? []) {
      if (s.depth >= t.depths) continue;
      const x0 = Math.max(left, xOf(scale, s.startUs));
      const x1 = Math.min(right, xOf(scale, s.startUs + s.durUs));
      if (x1 < left || x0 > right) continue;
      const w = x1 - x0;
      if (w < 1 && Math.floor(x0) <= lastPx[s.depth]!) continue;
      lastPx[s.depth] = Math.max(lastPx[s.depth]!, Math.floor(x0 + Math.max(w, 1)) - 1);
      const top = y + TRACK_PAD_PX + s.depth * ROW_PX;
      const matches = search !== '' && spanMatches(s, search);
      ctx.globalAlpha = (search !== '' && !matches ? 0.22 : s.merged > 1 ? 0.6 : 1) * (isOpen(s) ? 0.75 : 1);
      ctx.fillStyle = colorForName(s.merged > 1 ? s.cat || s.name : s.name);
      ctx.fillRect(x0, top + 1, Math.max(w, 1), ROW_PX - 2);
      const isSelected = sameSpan(selected, s);
      if (matches || isOpen(s) || isSelected) outlines.push([x0, top + 1, Math.max(w, 1), ROW_PX - 2, isSelected]);
      rows[s.depth]!.push({ x: x0, w: Math.max(w, 1), text: w >= MIN_LABEL_PX ? (isOpen(s) ? `${spanText(s)} …` : spanText(s)) : '' });
    }
  }
  ctx.globalAlpha = 1;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#fff';
  rows.forEach((row, depth) => {
    const mid = y + TRACK_PAD_PX + depth * ROW_PX + ROW_PX / 2;
    for (const label of placeRowLabels(row, MIN_LABEL_PX)) ctx.fillText(label.text, label.x, mid);
  });
  for (const [x, top, w, h, isSelected] of outlines) {
    ctx.strokeStyle = isSelected ? '#ffd400' : input.colors.text;
    ctx.lineWidth = isSelected ? 2 : 1;
    ctx.strokeRect(x + 0.5, top + 0.5, Math.max(w - 1, 1), h - 1);
  }
}

function threadRowTops(tracks: readonly Track[], input: DrawInput): Map<string, number> {
  const rowTop = new Map<string, number>();
  for (const t of tracks) if (t.kind === 'thread') rowTop.set(t.id, RULER_PX + t.top - input.scrollTop + TRACK_PAD_PX);
  return rowTop;
}

function drawRuler(ctx: CanvasRenderingContext2D, input: DrawInput): void {
  const { colors, scale, widthPx } = input;
  ctx.fillStyle = colors.surface;
  ctx.fillRect(0, 0, widthPx, RULER_PX);
  ctx.fillStyle = colors.border;
  ctx.fillRect(0, RULER_PX - 1, widthPx, 1);
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = colors.muted;
  for (const tick of rulerTicks(scale, widthPx)) {
    ctx.fillRect(Math.round(tick.x), RULER_PX - 7, 1, 6);
    if (tick.label === '') continue;
    const x = tick.align === 'left' ? tick.x + LABEL_INSET_PX : tick.x - LABEL_INSET_PX - textWidthPx(tick.label);
    ctx.fillText(tick.label, x, RULER_PX / 2 - 2);
  }
  if (input.area) {
    const x0 = Math.max(scale.x0, xOf(scale, input.area.startUs));
    const x1 = Math.min(scale.x0 + scale.widthPx, xOf(scale, input.area.endUs));
    ctx.fillStyle = 'rgba(78,121,167,0.35)';
    ctx.fillRect(x0, 0, Math.max(1, x1 - x0), RULER_PX - 1);
  }
  ctx.fillStyle = colors.surface;
  ctx.fillRect(0, 0, LABEL_PX, RULER_PX - 1);
}

function drawGrid(ctx: CanvasRenderingContext2D, input: DrawInput): void {
  ctx.fillStyle = input.colors.border;
  ctx.globalAlpha = 0.5;
  for (const tick of rulerTicks(input.scale)) ctx.fillRect(Math.round(tick.x), RULER_PX, 1, input.heightPx - RULER_PX);
  ctx.globalAlpha = 1;
}

function drawArea(ctx: CanvasRenderingContext2D, input: DrawInput): void {
  const { area, scale } = input;
  if (!area) return;
  const x0 = Math.max(scale.x0, xOf(scale, area.startUs));
  const x1 = Math.min(scale.x0 + scale.widthPx, xOf(scale, area.endUs));
  const y0 = RULER_PX + Math.min(area.y0, area.y1) - input.scrollTop;
  const y1 = RULER_PX + Math.max(area.y0, area.y1) - input.scrollTop;
  ctx.fillStyle = 'rgba(78,121,167,0.18)';
  ctx.fillRect(x0, y0, Math.max(1, x1 - x0), y1 - y0);
  ctx.strokeStyle = 'rgba(78,121,167,0.9)';
  ctx.lineWidth = 1;
  ctx.strokeRect(x0 + 0.5, y0 + 0.5, Math.max(1, x1 - x0 - 1), y1 - y0 - 1);
}

/** the tracks at least partly inside the viewport below the ruler */
export function visibleTracks(tracks: readonly Track[], scrollTop: number, heightPx: number): Track[] {
  const bottom = scrollTop + heightPx - RULER_PX;
  return tracks.filter((t) => t.top + t.height > scrollTop && t.top < bottom);
}

export function drawTracks(ctx: CanvasRenderingContext2D, input: DrawInput): void {
  const { colors, widthPx, heightPx } = input;
  ctx.fillStyle = colors.background;
  ctx.fillRect(0, 0, widthPx, heightPx);
  // the label column is DOM over the canvas (TrackTimeline.vue): buttons for groups, text people can select
  ctx.fillStyle = colors.surface;
  ctx.fillRect(0, 0, LABEL_PX, heightPx);
  drawGrid(ctx, input);
  const shown = visibleTracks(input.tracks, input.scrollTop, heightPx);
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, RULER_PX, widthPx, heightPx - RULER_PX);
  ctx.clip();
  for (const t of shown) {
    const y = RULER_PX + t.top - input.scrollTop;
    if (t.depths > 0) drawSpans(ctx, t, y, input);
    ctx.fillStyle = colors.border;
    ctx.fillRect(0, y + t.height - 1, widthPx, 1);
  }
  drawInstants(ctx, input.instants, threadRowTops(shown, input), input.scale, colors.muted);
  drawArea(ctx, input);
  ctx.restore();
  drawRuler(ctx, input);
}
