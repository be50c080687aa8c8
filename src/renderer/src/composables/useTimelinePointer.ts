/**
 * What the mouse, wheel and keyboard do on the track timeline: hover shows a tip (a box's, or an
 * instant's: its name and whether it is a routine note or a warning), a click selects
 * the box under the pointer, a drag selects an area for the summary, Ctrl+wheel zooms at the
 * pointer, Shift+wheel pans, W/S and A/D zoom and pan, Esc clears the selection and then the area.
 * The component keeps the layout and the painting; this keeps the pointing, so the two can be read apart.
 */
import { onBeforeUnmount, onMounted, shallowRef, type ComputedRef, type Ref, type ShallowRef } from 'vue';
import type { TimelineSpan } from '../../../shared/api';
import { clampWindow, panWindow, wasdMove, zoomWindow, type TimeWindow } from '../lib/timeWindow';
import { useTimelineStore } from '../stores';
import { instantAt, type InstantMark } from '../timeline/drawInstants';
import { LABEL_PX, RULER_PX, type TrackArea } from '../timeline/drawTracks';
import { usOf, type TimeScale } from '../timeline/timeScale';
import { depthAt, lanesBetween, trackAt, TRACK_PAD_PX, type Track } from '../timeline/trackLayout';
import { spanAtTime, type SpansByLane } from '../timeline/trackSpans';

/** a press that moves less than this is a click, not a drag */
const DRAG_THRESHOLD_PX = 4;

export interface TimelinePointerInput {
  canvas: Readonly<Ref<HTMLCanvasElement | null>>;
  scrollTop: Readonly<Ref<number>>;
  scale: ComputedRef<TimeScale>;
  tracks: ComputedRef<Track[]>;
  byLane: ComputedRef<SpansByLane>;
  instants: ComputedRef<readonly InstantMark[]>;
  plotWidth: ComputedRef<number>;
  /** the run's length, the outer bound of every window */
  total: ComputedRef<number>;
  shownWindow: ComputedRef<TimeWindow>;
  /** keys mean nothing until there is a timeline to move */
  hasView: () => boolean;
  selected: () => TimelineSpan | null;
  select: (span: TimelineSpan | null) => void;
  /** the window asked for; null when it shows the whole run */
  changeWindow: (window: TimeWindow | null) => void;
}

/** what the tip names: the box under the pointer, or the instant whose chevron it points at */
export type TimelineHover = ({ span: TimelineSpan; instant?: undefined } | { instant: InstantMark; span?: undefined }) & { x: number; y: number };

export interface TimelinePointer {
  hover: ShallowRef<TimelineHover | null>;
  /** the area being dragged, before it is handed to the store */
  dragArea: ShallowRef<TrackArea | null>;
  onMouseDown: (e: MouseEvent) => void;
  onHover: (e: MouseEvent) => void;
  onLeave: () => void;
  onWheel: (e: WheelEvent) => void;
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || el.isContentEditable;
}

/** pointer position in content coordinates: x on the canvas, y inside the tracks (below the ruler) */
function pointerOn(input: TimelinePointerInput, e: MouseEvent): { x: number; y: number; inRuler: boolean } {
  const r = input.canvas.value!.getBoundingClientRect();
  const y = e.clientY - r.top;
  return { x: e.clientX - r.left, y: y - RULER_PX + input.scrollTop.value, inRuler: y < RULER_PX };
}

function spanUnder(input: TimelinePointerInput, x: number, y: number): TimelineSpan | null {
  if (x < LABEL_PX) return null;
  const track = trackAt(input.tracks.value, y);
  const depth = track ? depthAt(track, y) : null;
  if (!track || depth === null) return null;
  const scale = input.scale.value;
  const slack = (2 * (scale.endUs - scale.startUs)) / scale.widthPx;
  return spanAtTime(input.byLane.value, track.lanes, depth, usOf(scale, x), slack);
}

/** the instant whose chevron is under the pointer; the chevrons hang from the top of their thread's first row */
function instantUnder(input: TimelinePointerInput, x: number, y: number): InstantMark | null {
  if (x < LABEL_PX || input.instants.value.length === 0) return null;
  const rowTop = new Map<string, number>();
  for (const t of input.tracks.value) if (t.kind === 'thread') rowTop.set(t.id, t.top + TRACK_PAD_PX);
  return instantAt(input.instants.value, rowTop, input.scale.value, x, y);
}

/** a press on the plot: a click selects the box under it, a drag selects an area for the summary */
function useTrackDrag(input: TimelinePointerInput, dragArea: ShallowRef<TrackArea | null>) {
  const tl = useTimelineStore();
  let down: { x: number; y: number; us: number } | null = null;

  function onMouseDown(e: MouseEvent): void {
    if (e.button !== 0) return;
    const p = pointerOn(input, e);
    if (p.inRuler || p.x < LABEL_PX) return;
    down = { x: p.x, y: p.y, us: usOf(input.scale.value, p.x) };
    window.addEventListener('mousemove', onDragMove);
    window.addEventListener('mouseup', onMouseUp, { once: true });
  }

  function areaTo(p: { x: number; y: number }): TrackArea {
    const at = usOf(input.scale.value, Math.min(Math.max(p.x, LABEL_PX), LABEL_PX + input.plotWidth.value));
    return { startUs: Math.max(0, Math.min(down!.us, at)), endUs: Math.min(input.total.value, Math.max(down!.us, at)), y0: down!.y, y1: p.y };
  }

  function onDragMove(e: MouseEvent): void {
    if (!down) return;
    const p = pointerOn(input, e);
    if (dragArea.value || Math.abs(p.x - down.x) > DRAG_THRESHOLD_PX) dragArea.value = areaTo(p);
  }

  function onMouseUp(e: MouseEvent): void {
    window.removeEventListener('mousemove', onDragMove);
    if (!down) return;
    const p = pointerOn(input, e);
    if (dragArea.value) {
      const a = areaTo(p);
      dragArea.value = null;
      void tl.selectArea({ ...a, lanes: lanesBetween(input.tracks.value, Math.min(a.y0, a.y1), Math.max(a.y0, a.y1) + 1) });
    } else {
      input.select(spanUnder(input, down.x, down.y));
    }
    down = null;
  }

  function stopListening(): void {
    window.removeEventListener('mousemove', onDragMove);
    window.removeEventListener('mouseup', onMouseUp);
  }

  return { onMouseDown, isPressed: (): boolean => down !== null, stopListening };
}

export function useTimelinePointer(input: TimelinePointerInput): TimelinePointer {
  const tl = useTimelineStore();
  const hover = shallowRef<TimelineHover | null>(null);
  const dragArea = shallowRef<TrackArea | null>(null);
  const drag = useTrackDrag(input, dragArea);

  function onHover(e: MouseEvent): void {
    if (drag.isPressed()) return;
    const p = pointerOn(input, e);
    const at = { x: p.x, y: p.y - input.scrollTop.value + RULER_PX };
    // a chevron is drawn over the boxes: pointing at it names the instant
    const instant = p.inRuler ? null : instantUnder(input, p.x, p.y);
    const span = p.inRuler || instant ? null : spanUnder(input, p.x, p.y);
    hover.value = instant ? { instant, ...at } : span ? { span, ...at } : null;
  }

  function moveTo(next: TimeWindow): void {
    const w = clampWindow(next, input.total.value);
    input.changeWindow(w.startUs <= 0 && w.endUs >= input.total.value ? null : w);
  }

  function onWheel(e: WheelEvent): void {
    if (e.ctrlKey || e.metaKey) {
      e.preventDefault();
      const p = pointerOn(input, e);
      const focus = p.x >= LABEL_PX ? usOf(input.scale.value, p.x) : undefined;
      moveTo(zoomWindow(input.shownWindow.value, Math.exp(Math.max(-1, Math.min(1, e.deltaY / 300))), input.total.value, focus));
    } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      e.preventDefault();
      const delta = e.shiftKey ? e.deltaY || e.deltaX : e.deltaX;
      moveTo(panWindow(input.shownWindow.value, delta / input.plotWidth.value, input.total.value));
    }
    // a plain vertical wheel scrolls the tracks natively
  }

  function onKey(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target) || !input.hasView()) return;
    if (e.key === 'Escape') {
      if (input.selected()) input.select(null);
      else if (tl.area) tl.clearArea();
      return;
    }
    const next = wasdMove(e.key, input.shownWindow.value, input.total.value);
    if (!next) return;
    e.preventDefault();
    moveTo(next);
  }

  onMounted(() => window.addEventListener('keydown', onKey));
  onBeforeUnmount(() => {
    window.removeEventListener('keydown', onKey);
    drag.stopListening();
  });

  const onLeave = (): void => {
    hover.value = null;
  };

  return { hover, dragArea, onMouseDown: drag.onMouseDown, onHover, onLeave, onWheel };
}
