/**
 * The run being watched: start or attach, events (progress, status, logs, timeline notices), memory
 * counters (the run's history when attached late, continued by the points the notices bring), and
 * a level-of-detail timeline of the visible window asked again, at most once every
 * TIMELINE_REFRESH_MS, while notices say it changed. The state and what events do to it live in
 * liveRunState.ts; this file asks the service and listens to it.
 */
import { defineStore } from 'pinia';
import { markRaw, watch, type ComputedRef } from 'vue';
import type { TimelineSpan } from '../../../shared/api';
import type { RunConfig } from '../../../shared/config';
import type { RunEvent } from '../../../shared/events';
import { errorText } from '../lib/errorText';
import { CounterSeriesBuilder } from '../../../shared/counterSeries';
import { fetchWindow, type TimeWindow } from '../lib/timeWindow';
import { throttleAsync, type Throttled } from '../lib/timing';
import { useApi } from './apiAccess';
import { applyRunEvent, applyRunRecord, liveRunClock, liveRunState, resetLiveRunState, type LiveRunState } from './liveRunState';
import { missingRunOf, runErrorText } from './missingRun';

export type { LivePhase, LogLine } from './liveRunState';

export const TIMELINE_REFRESH_MS = 250;

/** the timeline of the visible window, asked again at most every TIMELINE_REFRESH_MS */
function useWindowTimeline(s: LiveRunState, totalUs: ComputedRef<number>) {
  let viewWidthPx = 1200;

  async function refreshTimeline(): Promise<void> {
    const id = s.runId.value;
    if (id === null) return;
    const total = Math.max(totalUs.value, 1);
    const visible = s.visibleWindow.value;
    const asked = visible ? fetchWindow(visible, total) : { startUs: 0, endUs: total };
    const widthPx = Math.round(visible ? (viewWidthPx * (asked.endUs - asked.startUs)) / Math.max(visible.endUs - visible.startUs, 1) : viewWidthPx);
    try {
      const view = await useApi().getTimeline(id, { ...asked, widthPx: Math.min(Math.max(widthPx, 1), 20_000) });
      if (s.runId.value !== id) return;
      s.timeline.value = markRaw(view);
      s.timelineError.value = null;
    } catch (e) {
      if (s.runId.value === id) s.timelineError.value = errorText(e).message;
    }
  }

  const scheduleTimeline = throttleAsync(refreshTimeline, TIMELINE_REFRESH_MS);

  function setWindow(w: TimeWindow | null): void {
    s.visibleWindow.value = w;
    scheduleTimeline();
  }

  function setViewWidth(px: number): void {
    if (px > 0 && Math.abs(px - viewWidthPx) > 1) {
      viewWidthPx = px;
      scheduleTimeline();
    }
  }

  return { refreshTimeline, scheduleTimeline, setWindow, setViewWidth };
}

/** the service's events for the watched run, and the counters built up from its notices */
function useRunEvents(s: LiveRunState, scheduleTimeline: Throttled) {
  const counters = new CounterSeriesBuilder();
  let unsubscribe: (() => void) | null = null;
  let buffered: RunEvent[] | null = null;

  const handleEvent = (e: RunEvent): void => applyRunEvent(s, e, counters, scheduleTimeline);

  /** before the run has an id: every run's events are kept until release() names the one started */
  function listenBeforeStart(): void {
    buffered = [];
    unsubscribe = useApi().subscribe('*', (e) => {
      if (buffered !== null) buffered.push(e);
      else if (e.runId === s.runId.value) handleEvent(e);
    });
  }

  /** the run started has its id: the events kept for it are handled, later ones as they come */
  function release(id: string): void {
    const early = buffered ?? [];
    buffered = null;
    for (const e of early) if (e.runId === id) handleEvent(e);
  }

  function listenTo(id: string): void {
    unsubscribe = useApi().subscribe(id, handleEvent);
  }

  function stopListening(): void {
    unsubscribe?.();
    unsubscribe = null;
    buffered = null;
  }

  function reset(): void {
    stopListening();
    scheduleTimeline.cancel();
    counters.reset();
    resetLiveRunState(s);
  }

  return { counters, handleEvent, listenBeforeStart, release, listenTo, stopListening, reset };
}

/** a run started here, or one that already exists */
function useRunWatch(s: LiveRunState, scheduleTimeline: Throttled) {
  const events = useRunEvents(s, scheduleTimeline);

  /** starts a run; resolves with its id, or null when the service refused it (error says why) */
  async function start(config: RunConfig): Promise<string | null> {
    events.reset();
    s.phase.value = 'starting';
    const api = useApi();
    // listen before asking: the first events can arrive before startRun answers
    events.listenBeforeStart();
    try {
      const { runId: id } = await api.startRun(config);
      s.runId.value = id;
      if (s.phase.value === 'starting') s.phase.value = 'running';
      events.release(id);
      scheduleTimeline();
      return id;
    } catch (e) {
      events.stopListening();
      s.phase.value = 'failed';
      s.error.value = errorText(e);
      return null;
    }
  }

  /**
   * Watches a run that already exists: live if it still runs, its final timeline otherwise. A run
   * that ended shows the progress, elapsed time and status its record keeps. A run that cannot be
   * read keeps its id (the view names it) and nothing else is asked for it.
   */
  async function attach(id: string): Promise<void> {
    events.reset();
    s.runId.value = id;
    const api = useApi();
    events.listenTo(id);
    try {
      const [detail, series] = await Promise.all([api.getRun(id), api.getCounters(id)]);
      if (s.runId.value !== id) return;
      applyRunRecord(s, detail, series, events.counters);
    } catch (e) {
      if (s.runId.value !== id) return;
      if (missingRunOf(e, [id]) !== null) {
        events.stopListening();
        s.missing.value = true;
        s.error.value = runErrorText(e, id);
        return;
      }
      s.error.value = errorText(e);
    }
    scheduleTimeline();
  }

  return { handleEvent: events.handleEvent, reset: events.reset, start, attach };
}

/** the page's clock, once a second while the run runs: the elapsed time moves between progress reports */
function tickWhileRunning(s: LiveRunState, running: ComputedRef<boolean>): void {
  let timer: ReturnType<typeof setInterval> | undefined;
  watch(running, (now) => {
    clearInterval(timer);
    timer = now ? setInterval(() => (s.nowMs.value = Date.now()), 1_000) : undefined;
  }, { immediate: true });
}

export const useLiveRunStore = defineStore('liveRun', () => {
  const state = liveRunState();
  const clock = liveRunClock(state);
  const { refreshTimeline, scheduleTimeline, setWindow, setViewWidth } = useWindowTimeline(state, clock.totalUs);
  const { handleEvent, reset, start, attach } = useRunWatch(state, scheduleTimeline);
  tickWhileRunning(state, clock.running);

  async function cancel(): Promise<void> {
    const id = state.runId.value;
    if (id === null || !clock.running.value) return;
    state.cancelling.value = true;
    try {
      await useApi().cancelRun(id);
    } catch (e) {
      state.cancelling.value = false;
      state.error.value = errorText(e);
    }
  }

  function selectSpan(span: TimelineSpan | null): void {
    state.selectedSpan.value = span;
  }

  return {
    ...state,
    ...clock,
    start, attach, cancel, reset, setWindow, setViewWidth, selectSpan, refreshTimeline, handleEvent,
  };
});
