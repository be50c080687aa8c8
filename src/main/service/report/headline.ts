/**
 * A run's headline: each strategy's median encode, decode and total times, as the run list shows
 * them, marked where they are one first call and no median. Taken from the report, so a run and a
 * merge of shard runs say it the same way.
 */
import type { RunHeadline } from '../../../shared/api';
import type { Report } from '../../../shared/report';

export function headlineOf(report: Report): RunHeadline[] {
  return report.strategies.map((s) => {
    const h: RunHeadline = { strategy: s.strategy };
    if (s.encode) h.encodeMedianMs = s.encode.medianMs;
    if (s.decode) h.decodeMedianMs = s.decode.medianMs;
    if (s.total) h.totalMedianMs = s.total.medianMs;
    // with no warm repeat the "median" is the first call's time: a list must not call it warm
    const timed = s.total ?? s.decode;
    if (timed && timed.n === 0) h.firstCallOnly = true;
    return h;
  });
}
