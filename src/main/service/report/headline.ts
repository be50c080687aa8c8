/**
 * A run's headline: each strategy's median encode, decode and total times, as the run list shows
 * them. Taken from the report, so a run and a merge of shard runs say it the same way.
 */
import type { RunHeadline } from '../../../shared/api';
import type { Report } from '../../../shared/report';

export function headlineOf(report: Report): RunHeadline[] {
  return report.strategies.map((s) => {
    const h: RunHeadline = { strategy: s.strategy };
    if (s.encode) h.encodeMedianMs = s.encode.medianMs;
    if (s.decode) h.decodeMedianMs = s.decode.medianMs;
    if (s.total) h.totalMedianMs = s.total.medianMs;
    return h;
  });
}
