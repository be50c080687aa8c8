/**
 * What Results says of a run that has no report: how far it got (the last progress it recorded,
 * as its terminal last read it) and why nothing was reported, so "no report" never stands alone
 * beside a timeline that shows work done. Pure.
 */
import type { RunDetail } from '../../../shared/api';
import { readProgress } from '../../../shared/progress';

export function noReportText({ entry, progress }: Pick<RunDetail, 'entry' | 'progress'>): string {
  const id = entry.id;
  if (entry.status === 'queued' || entry.status === 'running') {
    return `Run ${id} is ${entry.status}: its report comes when it ends. The timeline shows it as it runs.`;
  }
  if (entry.status === 'completed') return `Run ${id} completed, but its report is not in its folder (deleted or never written).`;
  const verb = entry.status === 'cancelled' ? 'was cancelled' : 'failed';
  const where = progress ? ` at ${readProgress(progress).share}${progress.label ? ` (${progress.label})` : ''}` : '';
  // a run recorded now reports each strategy's first calls as they finish; one recorded before kept a report only from its first round of repeats
  return `Run ${id} ${verb}${where} and kept no report of what it measured. The timeline shows what it recorded.`;
}
