/**
 * What a finished run's record says about its progress, for a run opened after it ended (from
 * Runs or a link): no progress event will come, so the bar, the elapsed time and the status come
 * from the run's entry (status, createdAt, finishedAt), the last progress it saved (how far a
 * cancelled or failed run got, as its terminal last said) and its report (which strategies finished).
 */
import type { RunDetail } from '../../../shared/api';
import type { ProgressInfo } from '../../../shared/events';
import { stoppedAtText } from '../../../shared/progress';

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

export interface RecordedProgress {
  /** null where the record cannot tell how far the run got (no progress saved, no strategy in a report) */
  progress: ProgressInfo | null;
  /** wall time from creation to end, when the record has both */
  elapsedMs: number | undefined;
  /** what the record adds to the status: "stopped at 16 % (logsumexp-tiled · repeat 3); 2 of 7 strategies finished" */
  note: string;
}

function wallMs(createdAt: string, finishedAt: string | undefined): number | undefined {
  if (finishedAt === undefined) return undefined;
  const ms = Date.parse(finishedAt) - Date.parse(createdAt);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** which strategies (and external engines) the report says finished, with the bar's share; null where the report cannot tell */
function finishedRows(detail: RunDetail): { fraction: number; words: string } | null {
  const { report, config } = detail;
  const strategies = config.strategies.length;
  // external engines are rows of the report too, asked for apart from the strategies
  const engines = config.engines?.length ?? 0;
  const asked = strategies + engines;
  if (!report || asked === 0) return null;
  const finished = report.strategies.filter((s) => s.status === 'ok');
  const own = Math.min(strategies, finished.filter((s) => !s.external).length);
  const external = Math.min(engines, finished.filter((s) => s.external).length);
  const ownWords = `${own} of ${strategies} ${strategies === 1 ? 'strategy' : 'strategies'}`;
  return { fraction: (own + external) / asked, words: `${ownWords}${engines > 0 ? ` and ${external} of ${engines} external engine${engines === 1 ? '' : 's'}` : ''} finished` };
}

/** null for a run that has not ended: its live events tell the rest */
export function recordedProgress(detail: RunDetail): RecordedProgress | null {
  const { entry } = detail;
  if (!TERMINAL.has(entry.status)) return null;
  const elapsedMs = wallMs(entry.createdAt, entry.finishedAt);
  if (entry.status === 'completed') {
    return { progress: { fraction: 1, label: 'completed', elapsedMs: elapsedMs ?? 0 }, elapsedMs, note: '' };
  }
  // the last progress the run saved says how far it got as its pages and terminal last read it
  const last = detail.progress;
  const rows = finishedRows(detail);
  if (!last && !rows) return { progress: null, elapsedMs, note: 'no progress was recorded: the timeline shows how far it got' };
  const note = [last ? stoppedAtText(last) : '', rows?.words ?? ''].filter(Boolean).join('; ');
  const progress: ProgressInfo = last ? { ...last, label: entry.status } : { fraction: rows!.fraction, label: entry.status, elapsedMs: elapsedMs ?? 0 };
  return { progress, elapsedMs, note };
}
