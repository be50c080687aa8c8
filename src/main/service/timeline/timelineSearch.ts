/**
 * Two questions the timeline asks of the whole run, not of the boxes on screen: where is the
 * next span with this name (search), and what do the spans in this area add up to (the area
 * summary, the way Perfetto's area selection aggregates slices). Both read the index's flat
 * arrays, so a million-span run answers in a few milliseconds without building objects per span.
 */
import type { SpanAreaRequest, SpanAreaRow, SpanAreaSummary, SpanSearchRequest, SpanSearchResult, TimelineSpan } from '../../../shared/api';
import { upperBound } from '../../../shared/sortedSearch';
import { isLabelledSpan, spanLabel } from '../../../shared/traceSpans';
import type { DepthRow, LaneIndex, TimelineIndex } from './timelineIndex';

const NO_MATCH = 0;
const MATCH = 1;
/** a name that does not contain the query but whose spans' labels may ("electrode tet03") */
const BY_LABEL = 2;

/**
 * Per name id: whether its spans match the query (case-insensitive), don't, or match by their label,
 * which names which block or electrode a span was; only those spans' args are read.
 */
function matchingNames(index: TimelineIndex, text: string): Uint8Array {
  const needle = text.toLowerCase();
  const matches = new Uint8Array(index.strings.length);
  index.strings.forEach((s, i) => {
    if (s.toLowerCase().includes(needle)) matches[i] = MATCH;
    else if (isLabelledSpan(s)) matches[i] = BY_LABEL;
  });
  return matches;
}

function spanMatches(index: TimelineIndex, names: Uint8Array, row: DepthRow, i: number, needle: string): boolean {
  const kind = names[row.name[i]!];
  if (kind === NO_MATCH) return false;
  return kind === MATCH || spanLabel(index.strings[row.name[i]!]!, row.args[i]).toLowerCase().includes(needle);
}

function spanAt(index: TimelineIndex, lane: LaneIndex, row: DepthRow, i: number): TimelineSpan {
  const span: TimelineSpan = {
    lane: lane.lane.id, name: index.strings[row.name[i]!]!, cat: index.strings[row.cat[i]!]!, startUs: row.start[i]!, durUs: row.dur[i]!, depth: row.depth, merged: 1,
  };
  const args = row.args[i];
  if (args !== undefined) span.args = args;
  return span;
}

/**
 * Matches are ordered by start time, then lane order, then depth; "next" is the first strictly
 * after fromUs, "previous" the last strictly before, so stepping from a match's start moves on.
 */
export function findSpan(index: TimelineIndex, request: SpanSearchRequest): SpanSearchResult {
  const names = matchingNames(index, request.text);
  const needle = request.text.toLowerCase();
  const next = request.direction === 'next';
  let total = 0;
  let best: { lane: LaneIndex; row: DepthRow; i: number; start: number } | null = null;
  for (const lane of index.lanes) {
    for (const row of lane.rows) {
      for (let i = 0; i < row.start.length; i++) {
        if (!spanMatches(index, names, row, i, needle)) continue;
        total++;
        const s = row.start[i]!;
        const better = next
          ? s > request.fromUs && (best === null || s < best.start)
          : s < request.fromUs && (best === null || s > best.start);
        if (better) best = { lane, row, i, start: s };
      }
    }
  }
  if (best === null) return { total, match: null, ordinal: 0 };
  // its position: the matches starting before it, plus itself (ties at its start count once)
  let ordinal = 1;
  for (const lane of index.lanes) {
    for (const row of lane.rows) {
      for (let i = 0; i < row.start.length && row.start[i]! < best.start; i++) if (spanMatches(index, names, row, i, needle)) ordinal++;
    }
  }
  return { total, match: spanAt(index, best.lane, best.row, best.i), ordinal };
}

interface Totals {
  count: number;
  totalUs: number;
  selfUs: number;
  maxUs: number;
}

const clipped = (start: number, dur: number, lo: number, hi: number): number => Math.max(0, Math.min(start + dur, hi) - Math.max(start, lo));

/**
 * Spans that overlap [startUs, endUs) on the chosen lanes, grouped by name, their time clipped to
 * the area. Self time subtracts each span's direct children on its own lane (the next depth), found
 * by binary search: the child lies inside the last parent starting at or before it.
 */
export function summarizeArea(index: TimelineIndex, request: SpanAreaRequest): SpanAreaSummary {
  const { startUs: lo, endUs: hi } = request;
  const wanted = new Set(request.lanes);
  const byName = new Map<number, Totals>();
  let spans = 0;
  let laneCount = 0;
  for (const lane of index.lanes) {
    if (!wanted.has(lane.lane.id)) continue;
    laneCount++;
    const rows = [...lane.rows].sort((a, b) => a.depth - b.depth);
    // self time per span of each row, filled as the row's own spans and then its children are seen
    const selfOf = rows.map((row) => new Float64Array(row.start.length));
    rows.forEach((row, r) => {
      const from = upperBound(row.maxEnd, lo);
      for (let i = from; i < row.start.length && row.start[i]! < hi; i++) {
        const inside = clipped(row.start[i]!, row.dur[i]!, lo, hi);
        if (row.start[i]! + row.dur[i]! <= lo) continue;
        selfOf[r]![i]! += inside;
        const parentRow = r > 0 && rows[r - 1]!.depth === row.depth - 1 ? rows[r - 1]! : undefined;
        if (parentRow) {
          const p = upperBound(parentRow.start, row.start[i]!) - 1;
          if (p >= 0) selfOf[r - 1]![p]! -= inside;
        }
      }
    });
    rows.forEach((row, r) => {
      const from = upperBound(row.maxEnd, lo);
      for (let i = from; i < row.start.length && row.start[i]! < hi; i++) {
        if (row.start[i]! + row.dur[i]! <= lo) continue;
        const inside = clipped(row.start[i]!, row.dur[i]!, lo, hi);
        const name = row.name[i]!;
        let t = byName.get(name);
        if (!t) byName.set(name, (t = { count: 0, totalUs: 0, selfUs: 0, maxUs: 0 }));
        t.count++;
        t.totalUs += inside;
        t.selfUs += Math.max(0, selfOf[r]![i]!);
        t.maxUs = Math.max(t.maxUs, inside);
        spans++;
      }
    });
  }
  const out: SpanAreaRow[] = [...byName].map(([name, t]) => ({
    name: index.strings[name]!, count: t.count, totalUs: t.totalUs, selfUs: t.selfUs, meanUs: t.totalUs / t.count, maxUs: t.maxUs,
  }));
  out.sort((a, b) => b.totalUs - a.totalUs || a.name.localeCompare(b.name));
  return { startUs: lo, endUs: hi, lanes: laneCount, spans, rows: out };
}
