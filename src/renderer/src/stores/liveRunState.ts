/**
 * The live-run store's state and what changes it without asking the service: the refs it exposes,
 * the times derived from them, the effect of each pushed event and of a finished run's record.
 * Kept beside the store so its setup only wires these to the service.
 */
import { computed, markRaw, ref, shallowRef, type ComputedRef } from 'vue';
import type { CounterSeries, RunDetail, TimelineSpan, TimelineView } from '../../../shared/api';
import type { CounterSeriesBuilder } from '../../../shared/counterSeries';
import { mergeRunLogs, type ProcessRole, type ProgressInfo, type RunEvent, type RunLogLine, type RunStatus, type TimelineNotice } from '../../../shared/events';
import { readProgress } from '../../../shared/progress';
import { errorText, type ErrorText } from '../lib/errorText';
import { fetchWindow, type TimeWindow } from '../lib/timeWindow';
import { recordedProgress } from './recordedProgress';

export const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export type LivePhase = 'idle' | 'starting' | RunStatus;

/** a line of the run's log as the page shows it: its place in the log says which lines a late page already has */
export type LogLine = RunLogLine;

/** a counter series as the memory graph takes it: a live run's series name the process that recorded them, a finished run's do not */
export interface LiveCounterSeries extends CounterSeries {
  proc?: ProcessRole;
}

/** Big data sits in shallow refs with markRaw values: Vue must not walk every span of a long run on every change. */
export function liveRunState() {
  return {
    runId: ref<string | null>(null),
    phase: ref<LivePhase>('idle'),
    progress: shallowRef<ProgressInfo | null>(null),
    error: shallowRef<ErrorText | null>(null),
    logs: shallowRef<LogLine[]>([]),
    counters: shallowRef<LiveCounterSeries[]>([]),
    timeline: shallowRef<TimelineView | null>(null),
    timelineError: ref<string | null>(null),
    /** the visible window; null follows the whole run as it grows */
    visibleWindow: shallowRef<TimeWindow | null>(null),
    latestUs: ref(0),
    selectedSpan: shallowRef<TimelineSpan | null>(null),
    cancelling: ref(false),
    /** the watched run does not exist (a stale link, a deleted run) */
    missing: ref(false),
    /** a finished run's wall time from its record, and what the record adds to its status */
    recordedElapsedMs: ref<number | undefined>(undefined),
    recordNote: ref(''),
    /** the page's clock (Date.now) when the latest progress came, and now, ticked while the run runs */
    progressAtMs: ref(0),
    nowMs: ref(Date.now()),
  };
}

export type LiveRunState = ReturnType<typeof liveRunState>;

export interface LiveRunClock {
  running: ComputedRef<boolean>;
  finished: ComputedRef<boolean>;
  etaMs: ComputedRef<number | undefined>;
  totalUs: ComputedRef<number>;
  elapsedMs: ComputedRef<number | undefined>;
}

export function liveRunClock(s: LiveRunState): LiveRunClock {
  const running = computed(() => s.phase.value === 'starting' || s.phase.value === 'queued' || s.phase.value === 'running');
  const finished = computed(() => TERMINAL.has(s.phase.value));
  // the run's own estimate, as the terminal shows it: none is made up here from a share of steps
  const etaMs = computed(() => (running.value && s.progress.value ? readProgress(s.progress.value).etaMs : undefined));
  const totalUs = computed(() => Math.max(s.timeline.value?.totalUs ?? 0, s.latestUs.value));
  /**
   * Time since the run started. While it runs: the last progress report's, counted on since it
   * came (reports come once a step, which can be many seconds), and never behind the trace, whose
   * notices come several times a second. Once it ended: the longest of the report's, the trace's
   * length and the record's wall time, since no progress report follows a cancel, a failure or the
   * last step (and a run opened later had none at all).
   */
  const elapsedMs = computed<number | undefined>(() => {
    const reported = s.progress.value?.elapsedMs;
    const counted = reported === undefined || finished.value ? reported : reported + Math.max(0, s.nowMs.value - s.progressAtMs.value);
    const known = [counted, totalUs.value / 1000, finished.value ? s.recordedElapsedMs.value : undefined].filter((v): v is number => v !== undefined && v > 0);
    return known.length ? Math.max(...known) : reported;
  });
  return { running, finished, etaMs, totalUs, elapsedMs };
}

/** back to idle: nothing watched, nothing shown */
export function resetLiveRunState(s: LiveRunState): void {
  s.runId.value = null;
  s.phase.value = 'idle';
  s.progress.value = null;
  s.error.value = null;
  s.logs.value = [];
  s.counters.value = [];
  s.timeline.value = null;
  s.timelineError.value = null;
  s.visibleWindow.value = null;
  s.latestUs.value = 0;
  s.selectedSpan.value = null;
  s.cancelling.value = false;
  s.missing.value = false;
  s.recordedElapsedMs.value = undefined;
  s.recordNote.value = '';
  s.progressAtMs.value = 0;
}

/** the latest progress, and when it came: the elapsed time counts on from it */
function setProgress(s: LiveRunState, progress: ProgressInfo): void {
  s.progress.value = progress;
  s.nowMs.value = s.progressAtMs.value = Date.now();
}

/**
 * Whether a notice changes what the page shows: the lanes did, or, following the whole run, the
 * run grew or anything changed, or a change meets the window the page asks for.
 */
export function noticeMeetsView(s: LiveRunState, e: TimelineNotice, totalUs: number): boolean {
  if (e.lanesChanged) return true;
  const visible = s.visibleWindow.value;
  if (!visible) return e.latestUs > s.latestUs.value || e.changed.length > 0;
  const asked = fetchWindow(visible, totalUs);
  return e.changed.some((c) => c.startUs <= asked.endUs && c.endUs >= asked.startUs);
}

/** What one pushed event changes; `timelineChanged` asks for a fresh timeline of the visible window. */
export function applyRunEvent(s: LiveRunState, e: RunEvent, counters: CounterSeriesBuilder, timelineChanged: () => void): void {
  switch (e.type) {
    case 'timeline': {
      for (const d of e.counters) counters.addDelta(d);
      if (e.counters.length > 0) s.counters.value = markRaw(counters.withProcess());
      const shown = noticeMeetsView(s, e, Math.max(s.timeline.value?.totalUs ?? 0, s.latestUs.value, e.latestUs));
      s.latestUs.value = Math.max(s.latestUs.value, e.latestUs);
      if (shown) timelineChanged();
      break;
    }
    case 'progress':
      setProgress(s, e.progress);
      break;
    case 'status':
      s.phase.value = e.status;
      if (e.status === 'failed') s.error.value = e.error ? errorText(e.error) : { code: 'RUN_FAILED', message: 'The run failed without saying why; see the log.' };
      if (TERMINAL.has(e.status)) {
        s.cancelling.value = false;
        // the last records may land just before the status: one more look at the whole trace
        timelineChanged();
      }
      break;
    case 'log':
      s.logs.value = mergeRunLogs(s.logs.value, [{ seq: e.seq, level: e.level, message: e.message }]);
      break;
  }
}

/**
 * What a run's record and its counters add to a run opened after it started. Events that arrived
 * meanwhile win: they are newer than the record. Its kept log comes before the lines heard since. A live run's counters (each series naming its
 * process) are its whole history so far: the points heard since continue them, so a page that
 * joined late draws the run from its start. A recorded run's are all there is.
 */
export function applyRunRecord(s: LiveRunState, detail: RunDetail, series: LiveCounterSeries[], counters: CounterSeriesBuilder): void {
  if (s.phase.value === 'idle') s.phase.value = detail.entry.status;
  if (detail.entry.error) s.error.value = errorText(detail.entry.error);
  // the lines logged before the page joined, before those it heard since
  if (detail.log?.length) s.logs.value = mergeRunLogs(detail.log, s.logs.value);
  const recorded = TERMINAL.has(s.phase.value) ? recordedProgress(detail) : null;
  if (recorded) {
    if (s.progress.value === null) s.progress.value = recorded.progress;
    s.recordedElapsedMs.value = recorded.elapsedMs;
    s.recordNote.value = recorded.note;
  } else if (s.progress.value === null && detail.progress) {
    // what the terminal shows now, before the next progress event comes
    setProgress(s, detail.progress);
  }
  if (series.some((x) => x.proc !== undefined)) {
    counters.seed(series);
    s.counters.value = markRaw(counters.withProcess());
  } else if (s.counters.value.length === 0) {
    s.counters.value = markRaw(series);
  }
  for (const x of series) {
    const last = x.points[x.points.length - 1];
    if (last) s.latestUs.value = Math.max(s.latestUs.value, last[0]);
  }
}
