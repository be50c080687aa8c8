/** `auto`'s probe in one sentence, for a decode's log, report.md and the Results table alike. */
import { formatMs } from './format';
import type { AutoProbeRecord } from './report';

/** what the probe timed before the decode committed, its own time, and what `auto` then follows */
export function autoProbeSentence(record: Pick<AutoProbeRecord, 'summary' | 'probeMs' | 'faster'>): string {
  const follows = record.faster === 'series' ? 'series' : "the dispatch's choice";
  return `auto's probe: ${record.summary} (${formatMs(record.probeMs)}); it follows ${follows} where series' bound holds`;
}
