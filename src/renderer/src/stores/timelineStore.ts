/**
 * What the person does with the live run's timeline beyond moving its window: which groups are
 * collapsed, the search (text, the match shown, its place among all matches) and the area
 * selected with its summary. The window and the level-of-detail answers stay in the live-run
 * store; this store asks the service the whole-run questions (findSpan, summarizeArea).
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { SpanAreaSummary, SpanSearchResult, TimelineLane, TimelineSpan, TimelineView } from '../../../shared/api';
import { useLatestRequest } from '../composables/useLatestRequest';
import { errorText } from '../lib/errorText';
import { clampWindow, type TimeWindow } from '../lib/timeWindow';
import { electrodeGroupId, processGroupId, threadLaneOf } from '../timeline/trackLayout';
import { useApi } from './apiAccess';
import { useLiveRunStore } from './liveRunStore';

export interface AreaSelection {
  startUs: number;
  endUs: number;
  lanes: string[];
  /** the content y's it was drawn between, to draw it again */
  y0: number;
  y1: number;
}

/** the window a found span is shown in: the span and as much again on each side, at least 20 µs */
export function windowAround(span: TimelineSpan, totalUs: number): TimeWindow {
  const pad = Math.max(span.durUs, 10);
  return clampWindow({ startUs: span.startUs - pad, endUs: span.startUs + span.durUs + pad }, totalUs);
}

/** which groups are collapsed and how deep each lane has been, for the run shown */
function useTrackGroups() {
  /** groups the person opened or closed, by group id; the rest follow the default */
  const toggled = ref(new Map<string, boolean>());
  /** what is collapsed when the person has not chosen; set once per run from the first layout */
  const defaults = shallowRef<ReadonlySet<string> | null>(null);
  /** deepest depth + 1 seen per lane over this run's answers, so tracks keep their height while zooming */
  const depths = shallowRef(new Map<string, number>());

  function resetGroups(): void {
    toggled.value = new Map();
    defaults.value = null;
    depths.value = new Map();
  }

  function isCollapsed(groupId: string): boolean {
    return toggled.value.get(groupId) ?? defaults.value?.has(groupId) ?? false;
  }

  function toggle(groupId: string): void {
    const next = new Map(toggled.value);
    next.set(groupId, !isCollapsed(groupId));
    toggled.value = next;
  }

  function setDefaults(collapsed: ReadonlySet<string>): void {
    if (defaults.value === null) defaults.value = collapsed;
  }

  /** remembers the depths of a new answer; returns whether any lane got deeper */
  function noteDepths(view: TimelineView): boolean {
    let grew = false;
    const next = new Map(depths.value);
    for (const s of view.spans) {
      if ((next.get(s.lane) ?? 0) < s.depth + 1) {
        next.set(s.lane, s.depth + 1);
        grew = true;
      }
    }
    if (grew) depths.value = next;
    return grew;
  }

  /** opens the groups a lane sits in, so a span found on it is on screen */
  function reveal(lane: TimelineLane): void {
    const next = new Map(toggled.value);
    next.set(processGroupId(lane.process), false);
    if (lane.electrode) next.set(electrodeGroupId(threadLaneOf(lane)), false);
    toggled.value = next;
  }

  return { toggled, depths, resetGroups, isCollapsed, toggle, setDefaults, noteDepths, reveal };
}

/** the search over the whole run: its text, the match shown and its place among all matches */
function useSpanSearch(reveal: (lane: TimelineLane) => void) {
  const searchText = ref('');
  const search = shallowRef<SpanSearchResult | null>(null);
  const searchError = ref<string | null>(null);
  /** a span the track view should scroll to (a search match); the view clears it once shown */
  const focus = shallowRef<TimelineSpan | null>(null);
  const searches = useLatestRequest();

  function setSearchText(text: string): void {
    searchText.value = text;
    search.value = null;
    searchError.value = null;
  }

  /** the next (or previous) match from the one shown, else from the visible window's start */
  async function find(direction: 'next' | 'previous'): Promise<void> {
    const live = useLiveRunStore();
    const id = live.runId;
    const text = searchText.value.trim();
    if (id === null || text === '') return;
    const ticket = searches.next();
    const current = search.value?.match;
    const fromUs = current ? current.startUs : direction === 'next' ? (live.visibleWindow?.startUs ?? 0) - 1 : (live.visibleWindow?.endUs ?? live.totalUs) + 1;
    const ask = async (): Promise<SpanSearchResult> => {
      const result = await useApi().findSpan(id, { text, fromUs, direction });
      // past the last match: start again from the other end, as a find bar does
      if (result.match !== null || result.total === 0) return result;
      return useApi().findSpan(id, { text, fromUs: direction === 'next' ? -1 : live.totalUs + 1, direction });
    };
    await ticket.settle(ask, {
      onAnswer: (result) => {
        search.value = result;
        searchError.value = null;
        const match = result.match;
        if (!match) return;
        // every answer lists every lane: the one shown names the match's
        const lane = live.timeline?.lanes.find((l) => l.id === match.lane);
        if (lane) reveal(lane);
        focus.value = match;
        live.selectSpan(match);
        live.setWindow(windowAround(match, live.totalUs));
      },
      onError: (e) => {
        searchError.value = errorText(e).message;
      },
    });
  }

  return { searchText, search, searchError, focus, setSearchText, find };
}

/** the area dragged out on the tracks and the service's summary of it */
function useAreaSummary() {
  const area = shallowRef<AreaSelection | null>(null);
  const summary = shallowRef<SpanAreaSummary | null>(null);
  const summaryError = ref<string | null>(null);
  const areaSummaries = useLatestRequest();

  async function selectArea(selection: AreaSelection): Promise<void> {
    const id = useLiveRunStore().runId;
    area.value = selection;
    summary.value = null;
    summaryError.value = null;
    if (id === null || selection.lanes.length === 0 || selection.endUs <= selection.startUs) return;
    await areaSummaries.run(() => useApi().summarizeArea(id, { startUs: selection.startUs, endUs: selection.endUs, lanes: selection.lanes }), {
      onAnswer: (s) => {
        summary.value = s;
      },
      onError: (e) => {
        summaryError.value = errorText(e).message;
      },
    });
  }

  function clearArea(): void {
    areaSummaries.invalidate();
    area.value = null;
    summary.value = null;
    summaryError.value = null;
  }

  return { area, summary, summaryError, selectArea, clearArea };
}

export const useTimelineStore = defineStore('timeline', () => {
  const { toggled, depths, resetGroups, isCollapsed, toggle, setDefaults, noteDepths, reveal } = useTrackGroups();
  const { searchText, search, searchError, focus, setSearchText, find } = useSpanSearch(reveal);
  const { area, summary, summaryError, selectArea, clearArea } = useAreaSummary();
  let run: string | null = null;

  /** a new run starts with the default groups, no search and no area */
  function forRun(id: string | null): void {
    if (id === run) return;
    run = id;
    resetGroups();
    searchText.value = '';
    search.value = null;
    searchError.value = null;
    focus.value = null;
    clearArea();
  }

  return {
    toggled, depths, searchText, search, searchError, focus, area, summary, summaryError,
    forRun, isCollapsed, toggle, setDefaults, noteDepths, reveal, setSearchText, find, selectArea, clearArea,
  };
});
