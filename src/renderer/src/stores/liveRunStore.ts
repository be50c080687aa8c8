/**
 * The run being watched: start or attach, events (progress, status, logs, trace batches), memory
 * counters accumulated from the batches, and a level-of-detail timeline of the visible window
 * refreshed at most ~4 times a second while records arrive. Big data sits in shallow refs with
 * markRaw values: Vue must not walk twenty thousand spans on every change.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef } from 'vue';
import type { TimelineSpan, TimelineView } from '../../../shared/api';
import type { RunConfig } from '../../../shared/config';
import type { ProgressInfo, RunEvent, RunStatus } from '../../../shared/events';
import { etaMsOf } from '../lib/eta';
import { errorText, type ErrorText } from '../lib/errorText';
import { CounterAccumulator, type LiveCounterSeries } from '../lib/liveCounters';
import { fetchWindow, type TimeWindow } from '../lib/timeWindow';
import { throttleAsync } from '../lib/timing';
import { useApi } from './apiAccess';
import { missingRunOf, runErrorText } from './missingRun';
import { recordedProgress } from './recordedProgress';

export const TIMELINE_REFRESH_MS = 250;
const MAX_LOG_LINES = 200;
const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export type LivePhase = 'idle' | 'starting' | RunStatus;

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
}

export const useLiveRunStore = defineStore('liveRun', () => {
  const runId = ref<string | null>(null);
  const phase = ref<LivePhase>('idle');
  const progress = shallowRef<ProgressInfo | null>(null);
  const error = shallowRef<ErrorText | null>(null);
  const logs = shallowRef<LogLine[]>([]);
  const counters = shallowRef<LiveCounterSeries[]>([]);
  const timeline = shallowRef<TimelineView | null>(null);
  const timelineError = ref<string | null>(null);
  /** the visible window; null follows the whole run as it grows */
  const visibleWindow = shallowRef<TimeWindow | null>(null);
  const latestUs = ref(0);
  const selectedSpan = shallowRef<TimelineSpan | null>(null);
  const cancelling = ref(false);
  /** the watched run does not exist (a stale link, a deleted run) */
  const missing = ref(false);
  /** a finished run's wall time from its record, and what the record adds to its status */
  const recordedElapsedMs = ref<number | undefined>(undefined);
  const recordNote = ref('');
  let viewWidthPx = 1200;

  const accumulator = new CounterAccumulator();
  let unsubscribe: (() => void) | null = null;
  let buffered: RunEvent[] | null = null;

  const running = computed(() => phase.value === 'starting' || phase.value === 'queued' || phase.value === 'running');
  const finished = computed(() => TERMINAL.has(phase.value));
  const etaMs = computed(() => (running.value ? etaMsOf(progress.value) : undefined));
  const totalUs = computed(() => Math.max(timeline.value?.totalUs ?? 0, latestUs.value));
  /**
   * Time since the run started: the last progress report's while it runs; once it ended, the
   * longest of that, the trace's length and the record's wall time, since no progress report
   * follows a cancel, a failure or the last step (and a run opened later had none at all).
   */
  const elapsedMs = computed<number | undefined>(() => {
    const reported = progress.value?.elapsedMs;
    if (!finished.value) return reported;
    const known = [reported, totalUs.value / 1000, recordedElapsedMs.value].filter((v): v is number => v !== undefined && v > 0);
    return known.length ? Math.max(...known) : undefined;
  });

  async function refreshTimeline(): Promise<void> {
    const id = runId.value;
    if (id === null) return;
    const total = Math.max(totalUs.value, 1);
    const visible = visibleWindow.value;
    const asked = visible ? fetchWindow(visible, total) : { startUs: 0, endUs: total };
    const widthPx = Math.round(visible ? (viewWidthPx * (asked.endUs - asked.startUs)) / Math.max(visible.endUs - visible.startUs, 1) : viewWidthPx);
    try {
      const view = await useApi().getTimeline(id, { ...asked, widthPx: Math.min(Math.max(widthPx, 1), 20_000) });
      if (runId.value !== id) return;
      timeline.value = markRaw(view);
      timelineError.value = null;
    } catch (e) {
      if (runId.value === id) timelineError.value = errorText(e).message;
    }
  }

  const scheduleTimeline = throttleAsync(refreshTimeline, TIMELINE_REFRESH_MS);

  function handleEvent(e: RunEvent): void {
    switch (e.type) {
      case 'trace':
        if (accumulator.add(e.records)) counters.value = markRaw(accumulator.series());
        latestUs.value = accumulator.latestUs;
        scheduleTimeline();
        break;
      case 'progress':
        progress.value = e.progress;
        break;
      case 'status':
        phase.value = e.status;
        if (e.status === 'failed') error.value = e.error ? errorText(e.error) : { code: 'RUN_FAILED', message: 'The run failed without saying why; see the log.' };
        if (TERMINAL.has(e.status)) {
          cancelling.value = false;
          // the last batches may land just before the status: one more look at the whole trace
          scheduleTimeline();
        }
        break;
      case 'log':
        logs.value = [...logs.value.slice(-(MAX_LOG_LINES - 1)), { level: e.level, message: e.message }];
        break;
    }
  }

  function stopListening(): void {
    unsubscribe?.();
    unsubscribe = null;
    buffered = null;
  }

  function reset(): void {
    stopListening();
    scheduleTimeline.cancel();
    accumulator.reset();
    runId.value = null;
    phase.value = 'idle';
    progress.value = null;
    error.value = null;
    logs.value = [];
    counters.value = [];
    timeline.value = null;
    timelineError.value = null;
    visibleWindow.value = null;
    latestUs.value = 0;
    selectedSpan.value = null;
    cancelling.value = false;
    missing.value = false;
    recordedElapsedMs.value = undefined;
    recordNote.value = '';
  }

  /** starts a run; resolves with its id, or null when the service refused it (error says why) */
  async function start(config: RunConfig): Promise<string | null> {
    reset();
    phase.value = 'starting';
    const api = useApi();
    // listen before asking: the first events can arrive before startRun answers
    buffered = [];
    unsubscribe = api.subscribe('*', (e) => {
      if (buffered !== null) buffered.push(e);
      else if (e.runId === runId.value) handleEvent(e);
    });
    try {
      const { runId: id } = await api.startRun(config);
      runId.value = id;
      const early = buffered ?? [];
      buffered = null;
      if (phase.value === 'starting') phase.value = 'running';
      for (const e of early) if (e.runId === id) handleEvent(e);
      scheduleTimeline();
      return id;
    } catch (e) {
      stopListening();
      phase.value = 'failed';
      error.value = errorText(e);
      return null;
    }
  }

  /** a run that cannot be read: its id stays (the view names it), nothing else is asked for it */
  function markMissing(e: unknown, id: string): void {
    stopListening();
    missing.value = true;
    error.value = runErrorText(e, id);
  }

  /**
   * Watches a run that already exists: live if it still runs, its final timeline otherwise. A run
   * that ended shows the progress, elapsed time and status its record keeps.
   */
  async function attach(id: string): Promise<void> {
    reset();
    runId.value = id;
    const api = useApi();
    unsubscribe = api.subscribe(id, handleEvent);
    try {
      const [detail, series] = await Promise.all([api.getRun(id), api.getCounters(id)]);
      if (runId.value !== id) return;
      if (phase.value === 'idle') phase.value = detail.entry.status;
      if (detail.entry.error) error.value = errorText(detail.entry.error);
      const recorded = TERMINAL.has(phase.value) ? recordedProgress(detail) : null;
      if (recorded) {
        if (progress.value === null) progress.value = recorded.progress;
        recordedElapsedMs.value = recorded.elapsedMs;
        recordNote.value = recorded.note;
      }
      if (counters.value.length === 0) counters.value = markRaw(series);
      for (const s of series) {
        const last = s.points[s.points.length - 1];
        if (last) latestUs.value = Math.max(latestUs.value, last[0]);
      }
    } catch (e) {
      if (runId.value !== id) return;
      if (missingRunOf(e, [id]) !== null) return markMissing(e, id);
      error.value = errorText(e);
    }
    scheduleTimeline();
  }

  async function cancel(): Promise<void> {
    const id = runId.value;
    if (id === null || !running.value) return;
    cancelling.value = true;
    try {
      await useApi().cancelRun(id);
    } catch (e) {
      cancelling.value = false;
      error.value = errorText(e);
    }
  }

  function setWindow(w: TimeWindow | null): void {
    visibleWindow.value = w;
    scheduleTimeline();
  }

  function setViewWidth(px: number): void {
    if (px > 0 && Math.abs(px - viewWidthPx) > 1) {
      viewWidthPx = px;
      scheduleTimeline();
    }
  }

  function selectSpan(span: TimelineSpan | null): void {
    selectedSpan.value = span;
  }

  return {
    runId, phase, progress, error, logs, counters, timeline, timelineError, visibleWindow, latestUs, selectedSpan, cancelling,
    missing, recordedElapsedMs, recordNote,
    running, finished, etaMs, totalUs, elapsedMs,
    start, attach, cancel, reset, setWindow, setViewWidth, selectSpan, refreshTimeline, handleEvent,
  };
});
