/**
 * The cursor of the Decode view on a 2-D decode: the time row whose posterior map is shown, the
 * map itself, and playing. One map request is on its way at a time: rows asked for meanwhile (a
 * scrub sweeps through hundreds) wait as one, the latest, so the page never queues more maps than
 * it can draw. Playing steps the row once a frame, and only once the last frame's map is in.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { PosteriorSource } from '../../../shared/posteriorView';
import { MAX_TRAIL_ROWS, type PosteriorMap } from '../../../shared/posteriorViewMap';
import { errorText } from '../lib/errorText';
import { useApi } from './apiAccess';
import { revivedMap } from './posteriorRows';

/** a frame while playing: ten maps a second read as motion and leave the service time to answer */
export const MAP_FRAME_MS = 100;
/** playing speeds, as multiples of the recording's own pace */
export const PLAY_SPEEDS: readonly number[] = [0.05, 0.1, 0.25, 0.5, 1, 2, 5];
export const DEFAULT_PLAY_SPEED = 0.25;
/** the true trajectory drawn behind the animal */
export const TRAIL_SECONDS = 1;

/** which decode the cursor is on */
export interface MapTarget {
  runId: string;
  source: PosteriorSource;
  nTime: number;
  /** the decode's time rows per second */
  rowsPerSecond: number;
}

function mapState() {
  return {
    target: shallowRef<MapTarget | null>(null),
    /** the time rows the cursor may move in: the range the charts show */
    range: ref<readonly [number, number]>([0, 0]),
    row: ref(0),
    map: shallowRef<PosteriorMap | null>(null),
    error: ref<string | null>(null),
    playing: ref(false),
    speed: ref(DEFAULT_PLAY_SPEED),
    inFlight: ref(false),
  };
}

type MapState = ReturnType<typeof mapState>;

/** the map at the cursor's row: one request on its way at a time, the latest row waiting behind it */
function useMapRequests(s: MapState) {
  let pending = false;
  /** bumped when the decode changes: an answer for the one before is dropped */
  let generation = 0;
  const trailRows = computed(() => Math.min(MAX_TRAIL_ROWS, Math.round(TRAIL_SECONDS * (s.target.value?.rowsPerSecond ?? 0))));

  async function request(): Promise<void> {
    const t = s.target.value;
    if (!t) return;
    if (s.inFlight.value) {
      pending = true;
      return;
    }
    s.inFlight.value = true;
    const mine = generation;
    try {
      const m = await useApi().getPosteriorMap(t.runId, { row: s.row.value, source: t.source, trailRows: trailRows.value });
      if (mine === generation) [s.map.value, s.error.value] = [revivedMap(m), null];
    } catch (e) {
      if (mine === generation) s.error.value = errorText(e).message;
    } finally {
      s.inFlight.value = false;
    }
    if (pending) {
      pending = false;
      await request();
    }
  }

  /** moves the cursor to a time row (kept inside the range) and asks for its map */
  function setRow(row: number): Promise<void> {
    const [from, to] = s.range.value;
    const r = Math.max(from, Math.min(to - 1, Math.round(row)));
    if (!Number.isFinite(r) || (r === s.row.value && s.map.value?.row === r)) return Promise.resolve();
    s.row.value = r;
    return request();
  }

  /** a new decode to show: what was asked for the one before no longer counts */
  function restart(): Promise<void> {
    generation++;
    return request();
  }

  return { trailRows, setRow, restart };
}

/** stepping the cursor a frame at a time, waiting for each frame's map */
function usePlayback(s: MapState, setRow: (row: number) => Promise<void>) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const stepRows = computed(() => Math.max(1, Math.round((s.speed.value * (s.target.value?.rowsPerSecond ?? 1) * MAP_FRAME_MS) / 1000)));

  function pause(): void {
    s.playing.value = false;
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  function tick(): void {
    timer = null;
    if (!s.playing.value) return;
    if (!s.inFlight.value) {
      const last = s.range.value[1] - 1;
      const next = Math.min(last, s.row.value + stepRows.value);
      void setRow(next);
      if (next >= last) {
        pause();
        return;
      }
    }
    timer = setTimeout(tick, MAP_FRAME_MS);
  }

  /** plays from the cursor to the end of the range (from its start when the cursor is at the end) */
  function play(): void {
    if (s.playing.value || !s.target.value) return;
    if (s.row.value >= s.range.value[1] - 1) void setRow(s.range.value[0]);
    s.playing.value = true;
    timer = setTimeout(tick, MAP_FRAME_MS);
  }

  return { stepRows, play, pause };
}

export const usePosteriorMapStore = defineStore('posteriorMap', () => {
  const s = mapState();
  const { trailRows, setRow, restart } = useMapRequests(s);
  const { stepRows, play, pause } = usePlayback(s, setRow);

  /** the decode whose maps to show; the same one again only keeps the cursor inside the range */
  function follow(target: MapTarget, range: readonly [number, number]): Promise<void> {
    const was = s.target.value;
    const same = was?.runId === target.runId && was.source === target.source && was.nTime === target.nTime;
    s.range.value = range;
    if (same && s.map.value) return setRow(s.row.value);
    pause();
    [s.target.value, s.map.value, s.error.value] = [target, null, null];
    s.row.value = Math.max(range[0], Math.min(range[1] - 1, was?.runId === target.runId ? s.row.value : range[0]));
    return restart();
  }

  /** the rows the charts show changed: the cursor stays where it was if it is still among them */
  function setRange(range: readonly [number, number]): Promise<void> {
    s.range.value = range;
    return setRow(s.row.value);
  }

  function setSpeed(speed: number): void {
    if (PLAY_SPEEDS.includes(speed)) s.speed.value = speed;
  }

  return { ...s, stepRows, trailRows, follow, setRange, setRow, play, pause, setSpeed };
});
