/**
 * Level-of-detail view of a time window: spans at least one pixel wide come back as they are;
 * runs of narrower spans on the same lane and depth, closer than a pixel to each other, become one
 * "merged" box. If the answer would still exceed the span budget the pixel is widened, so even a
 * million-event trace answers with a bounded number of boxes.
 */
import type { TimelineRequest, TimelineSpan, TimelineView } from '../../../shared/api';
import { lowerBound, upperBound } from '../../../shared/sortedSearch';
import type { TimelineIndex } from './timelineIndex';

export const MAX_TIMELINE_SPANS = 20_000;
export const MAX_TIMELINE_INSTANTS = 2_000;

interface Pending {
  start: number;
  end: number;
  count: number;
  name: number;
  sameName: boolean;
  cat: number;
}

function spansInWindow(index: TimelineIndex, startUs: number, endUs: number, pxUs: number, limit: number): TimelineSpan[] | undefined {
  const out: TimelineSpan[] = [];
  for (const { lane, rows } of index.lanes) {
    for (const row of rows) {
      let pending: Pending | undefined;
      const flush = () => {
        if (!pending) return;
        const p = pending;
        pending = undefined;
        out.push({
          lane: lane.id,
          name: p.count === 1 || p.sameName ? index.strings[p.name]! : `${p.count} spans`,
          cat: index.strings[p.cat]!,
          startUs: p.start,
          durUs: p.end - p.start,
          depth: row.depth,
          merged: p.count,
        });
      };
      // maxEnd is monotone: the first span that can reach into the window is the first ending after its start
      for (let i = upperBound(row.maxEnd, startUs); i < row.start.length && row.start[i]! < endUs; i++) {
        const s = row.start[i]!;
        const d = row.dur[i]!;
        if (s + d <= startUs) continue;
        if (d >= pxUs) {
          flush();
          const span: TimelineSpan = {
            lane: lane.id, name: index.strings[row.name[i]!]!, cat: index.strings[row.cat[i]!]!, startUs: s, durUs: d, depth: row.depth, merged: 1,
          };
          const args = row.args[i];
          if (args !== undefined) span.args = args;
          out.push(span);
        } else if (pending && s - pending.end < pxUs) {
          pending.end = Math.max(pending.end, s + d);
          pending.count++;
          if (row.name[i] !== pending.name) pending.sameName = false;
        } else {
          flush();
          pending = { start: s, end: s + d, count: 1, name: row.name[i]!, sameName: true, cat: row.cat[i]! };
        }
        if (out.length > limit) return undefined;
      }
      flush();
      if (out.length > limit) return undefined;
    }
  }
  return out;
}

export function queryTimeline(index: TimelineIndex, request: TimelineRequest): TimelineView {
  const { startUs, endUs } = request;
  let pxUs = (endUs - startUs) / Math.max(1, request.widthPx);
  let spans: TimelineSpan[] | undefined;
  // each retry doubles the merge width; a window of W pixels ends with at most ~W boxes per row
  for (let attempt = 0; attempt < 40 && spans === undefined; attempt++) {
    spans = spansInWindow(index, startUs, endUs, pxUs, MAX_TIMELINE_SPANS);
    pxUs *= 2;
  }
  const from = lowerBound(index.instantTsUs, startUs);
  const to = lowerBound(index.instantTsUs, endUs);
  const step = Math.max(1, Math.ceil((to - from) / MAX_TIMELINE_INSTANTS));
  const instants: TimelineView['instants'] = [];
  for (let i = from; i < to; i += step) instants.push(index.instants[i]!);
  return {
    startUs,
    endUs,
    totalUs: index.endUs,
    lanes: index.lanes.map((l) => l.lane),
    spans: spans ?? [],
    instants,
    totalEvents: index.totalEvents,
  };
}
