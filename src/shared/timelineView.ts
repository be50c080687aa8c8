/**
 * The timeline's part of the contract: a level-of-detail view of a window of the trace, span
 * search, area summaries, counter series, and what a live run's notice says changed. ProfilerApi
 * (api.ts) serves them; api.ts re-exports this module so the page imports the whole contract from
 * one place.
 */
import type { ProcessRole } from './events';

/** Level-of-detail view of a time window of the trace, for the timeline. */
export interface TimelineRequest {
  startUs: number;
  endUs: number;
  /** horizontal pixels the view has: spans shorter than a pixel are merged */
  widthPx: number;
}

/** Which lane: a thread of a process, and on a lane split off for one electrode, that electrode's index in the dataset. */
export interface LaneKey {
  process: ProcessRole;
  /** the thread's id in the trace (`tid`) */
  thread: number;
  electrode?: number;
}

/**
 * A lane's id, the key spans and area requests name it by. Minted here for both sides, so the
 * page finds a thread's lane from an electrode lane's process and thread instead of reading the id.
 */
export function laneIdOf(key: LaneKey): string {
  const thread = `${key.process}:${key.thread}`;
  return key.electrode === undefined ? thread : `${thread}/electrode ${key.electrode}`;
}

export interface TimelineLane {
  id: string;
  /** "engine · main", "service", "engine · worker 0 · tet03" */
  name: string;
  process: ProcessRole;
  /** the thread's id in the trace; an electrode lane's is the thread it was split from */
  thread: number;
  /** on a lane split off for one electrode: its index in the dataset and the dataset's name for it, where the trace says */
  electrode?: { index: number; name?: string };
}

export interface TimelineSpan {
  lane: string;
  name: string;
  cat: string;
  startUs: number;
  durUs: number;
  depth: number;
  /** > 1 when this box stands for several merged spans */
  merged: number;
  args?: Record<string, unknown>;
}

/** The arg the service sets on a box drawn for a span that has begun and not ended (a live run's "run", say). */
export const IN_PROGRESS_ARG = 'inProgress';

export interface TimelineView {
  startUs: number;
  endUs: number;
  totalUs: number;
  lanes: TimelineLane[];
  spans: TimelineSpan[];
  instants: { lane: string; name: string; tsUs: number }[];
  totalEvents: number;
}

/**
 * Timeline search: the next (or previous) span whose name contains the text, case-insensitive,
 * over the whole run rather than the boxes on screen, so merged spans are found too.
 */
export interface SpanSearchRequest {
  text: string;
  /** 'next': the first match starting after fromUs; 'previous': the last starting before it */
  fromUs: number;
  direction: 'next' | 'previous';
}

export interface SpanSearchResult {
  /** spans of the whole run whose name matches */
  total: number;
  /** the match found; null when none lies in that direction */
  match: TimelineSpan | null;
  /** the match's 1-based position among all matches in start order; 0 without a match */
  ordinal: number;
}

/** An area of the timeline, the way Perfetto's area selection works: a time range on some lanes. */
export interface SpanAreaRequest {
  startUs: number;
  endUs: number;
  /** lane ids (TimelineLane.id) */
  lanes: string[];
}

/** One span name inside an area; times are clipped to the area. */
export interface SpanAreaRow {
  name: string;
  count: number;
  totalUs: number;
  /** total minus the time of the spans nested directly inside, on the same lane */
  selfUs: number;
  meanUs: number;
  maxUs: number;
}

export interface SpanAreaSummary {
  startUs: number;
  endUs: number;
  lanes: number;
  spans: number;
  /** by total time, longest first */
  rows: SpanAreaRow[];
}

export interface CounterSeries {
  name: string;
  key: string;
  points: [number, number][];
  /** the process that recorded it, where the answer tells (a live run's): a page joining late adds the points it hears to these */
  proc?: ProcessRole;
}

/**
 * What a live run's lane draws between startUs and endUs changed (its spans and instants; an open
 * span's box reaching further counts where it now reaches): a page showing a window that meets the
 * range asks for it again, one that does not keeps what it has. The range is a thread's, so it
 * covers the electrode lanes split from that thread too.
 */
export interface LaneChange {
  lane: Omit<LaneKey, 'electrode'>;
  startUs: number;
  endUs: number;
}

/** Counter points a live run recorded since its previous notice, of one series, in the order recorded. */
export interface CounterDelta {
  proc: ProcessRole;
  name: string;
  key: string;
  points: [number, number][];
}
