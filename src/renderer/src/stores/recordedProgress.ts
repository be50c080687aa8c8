/**
 * What a finished run's record says about its progress, for a run opened after it ended (from
 * Runs or a link): no progress event will come, so the bar, the elapsed time and the status come
 * from the run's entry (status, createdAt, finishedAt) and its report (which strategies finished).
 */
import type { RunDetail } from '../../../shared/api';
import type { ProgressInfo } from '../../../shared/events';

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export interface RecordedProgress {
  /** null where the record cannot tell how far the run got (it ended before any strategy finished a report) */
  progress: ProgressInfo | null;
  /** wall time from creation to end, when the record has both */
  elapsedMs: number | undefined;
  /** what the record adds to the status: "2 of 7 strategies finished" */
  note: string;
}

function wallMs(createdAt: string, finishedAt: string | undefined): number | undefined {
  if (finishedAt === undefined) return undefined;
  const ms = Date.parse(finishedAt) - Date.parse(createdAt);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** null for a run that has not ended: its live events tell the rest */
export function recordedProgress(detail: RunDetail): RecordedProgress | null {
  const { entry, report } = detail;
  if (!TERMINAL.has(entry.status)) return null;
  const elapsedMs = wallMs(entry.createdAt, entry.finishedAt);
  if (entry.status === 'completed') {
    return { progress: { fraction: 1, label: 'completed', elapsedMs: elapsedMs ?? 0 }, elapsedMs, note: '' };
  }
  const strategies = detail.config.strategies.length;
  // external engines are rows of the report too, asked for apart from the strategies
  const engines = detail.config.engines?.length ?? 0;
  const asked = strategies + engines;
  if (!report || asked === 0) return { progress: null, elapsedMs, note: 'how far it got was not recorded' };
  const finished = report.strategies.filter((s) => s.status === 'ok');
  const own = Math.min(strategies, finished.filter((s) => !s.external).length);
  const external = Math.min(engines, finished.filter((s) => s.external).length);
  const ownWords = `${own} of ${strategies} ${strategies === 1 ? 'strategy' : 'strategies'}`;
  return {
    progress: { fraction: (own + external) / asked, label: entry.status, elapsedMs: elapsedMs ?? 0 },
    elapsedMs,
    note: `${ownWords}${engines > 0 ? ` and ${external} of ${engines} external engine${engines === 1 ? '' : 's'}` : ''} finished`,
  };
}
