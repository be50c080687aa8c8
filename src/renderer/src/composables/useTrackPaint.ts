/**
 * Paints the track timeline on its canvas at most once a frame: any change of layout, scale,
 * scroll, selection, search or area asks for a frame, and one paint serves every change before it.
 * Colours come from the page's theme variables, so a theme switch repaints in its colours.
 */
import { onBeforeUnmount, onMounted, ref, watch, type ComputedRef, type Ref } from 'vue';
import type { TimelineSpan, TimelineView } from '../../../shared/api';
import { useTimelineStore } from '../stores';
import { drawTracks, type TrackArea, type TrackColors } from '../timeline/drawTracks';
import type { TimeScale } from '../timeline/timeScale';
import type { Track } from '../timeline/trackLayout';
import type { SpansByLane } from '../timeline/trackSpans';

export interface TrackPaintInput {
  root: Readonly<Ref<HTMLElement | null>>;
  canvas: Readonly<Ref<HTMLCanvasElement | null>>;
  widthPx: Readonly<Ref<number>>;
  viewportPx: ComputedRef<number>;
  scrollTop: Readonly<Ref<number>>;
  tracks: ComputedRef<Track[]>;
  byLane: ComputedRef<SpansByLane>;
  scale: ComputedRef<TimeScale>;
  /** the area being dragged; the store's area is drawn when there is none */
  dragArea: Readonly<Ref<TrackArea | null>>;
  view: () => TimelineView | null;
  selected: () => TimelineSpan | null;
}

function themeColors(root: HTMLElement | null): TrackColors {
  const css = getComputedStyle(root ?? document.documentElement);
  const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  return { background: v('--bg', '#f6f7f9'), surface: v('--surface', '#fff'), text: v('--text', '#1d232b'), muted: v('--muted', '#5d6673'), border: v('--border', '#d3d8e0') };
}

/** Returns how many paints were made (the tests wait on it). */
export function useTrackPaint(input: TrackPaintInput): { paintCount: Ref<number> } {
  const tl = useTimelineStore();
  const paintCount = ref(0);
  let frame = 0;

  function paint(): void {
    frame = 0;
    const el = input.canvas.value;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    const w = input.widthPx.value;
    const h = input.viewportPx.value;
    if (el.width !== Math.round(w * dpr) || el.height !== Math.round(h * dpr)) {
      el.width = Math.round(w * dpr);
      el.height = Math.round(h * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const area = input.dragArea.value ?? (tl.area ? { startUs: tl.area.startUs, endUs: tl.area.endUs, y0: tl.area.y0, y1: tl.area.y1 } : null);
    drawTracks(ctx, {
      tracks: input.tracks.value, byLane: input.byLane.value, instants: input.view()?.instants ?? [], scale: input.scale.value,
      scrollTop: input.scrollTop.value, widthPx: w, heightPx: h, colors: themeColors(input.root.value),
      search: tl.searchText.trim().toLowerCase(), selected: input.selected(), area,
    });
    paintCount.value++;
  }

  function schedule(): void {
    if (frame === 0) frame = requestAnimationFrame(paint);
  }

  const { tracks, scale, byLane, scrollTop, viewportPx, dragArea } = input;
  watch([tracks, scale, byLane, scrollTop, viewportPx, input.selected, () => tl.searchText, () => tl.area, dragArea], schedule);
  onMounted(schedule);
  onBeforeUnmount(() => {
    if (frame) cancelAnimationFrame(frame);
  });

  return { paintCount };
}
