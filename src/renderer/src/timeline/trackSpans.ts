/**
 * The spans of one level-of-detail answer, arranged for drawing and pointing: per lane, sorted by
 * start, so a track finds its spans at once and a click finds the box under it; and the chain of
 * spans a span sits inside, across the electrode lane into its thread's lane.
 */
import type { TimelineLane, TimelineSpan } from '../../../shared/api';
import { threadLaneOf } from './trackLayout';

export type SpansByLane = ReadonlyMap<string, readonly TimelineSpan[]>;

export function spansByLane(spans: readonly TimelineSpan[]): SpansByLane {
  const out = new Map<string, TimelineSpan[]>();
  for (const s of spans) {
    let list = out.get(s.lane);
    if (!list) out.set(s.lane, (list = []));
    list.push(s);
  }
  for (const list of out.values()) list.sort((a, b) => a.startUs - b.startUs || a.depth - b.depth);
  return out;
}

/**
 * The span drawn at time `us` on `depth` of these lanes; within `slackUs` of a box counts as on it,
 * so a sliver a pixel wide can be clicked. The narrowest candidate wins.
 */
export function spanAtTime(byLane: SpansByLane, lanes: readonly string[], depth: number, us: number, slackUs: number): TimelineSpan | null {
  let best: TimelineSpan | null = null;
  for (const lane of lanes) {
    for (const s of byLane.get(lane) ?? []) {
      if (s.startUs - slackUs > us) break;
      if (s.depth !== depth || s.startUs + s.durUs + slackUs < us) continue;
      const inside = us >= s.startUs && us <= s.startUs + s.durUs;
      const bestInside = best !== null && us >= best.startUs && us <= best.startUs + best.durUs;
      if (best === null || (inside && !bestInside) || (inside === bestInside && s.durUs < best.durUs)) best = s;
    }
  }
  return best;
}

const contains = (outer: TimelineSpan, inner: TimelineSpan): boolean =>
  outer.startUs <= inner.startUs && outer.startUs + outer.durUs >= inner.startUs + inner.durUs;

/**
 * Outermost first: the spans on the span's lane (one of `lanes`) at smaller depths that contain it,
 * preceded, for an electrode lane, by the spans of its thread's lane that contain it ("run › strategy › decode ›
 * electrode 3" before the electrode's own stages). A parent merged away at this zoom is missing.
 */
export function parentChain(byLane: SpansByLane, span: TimelineSpan, lanes: readonly TimelineLane[]): TimelineSpan[] {
  const chain: TimelineSpan[] = [];
  const lane = lanes.find((l) => l.id === span.lane);
  const thread = lane ? threadLaneOf(lane) : span.lane;
  if (thread !== span.lane) {
    chain.push(...(byLane.get(thread) ?? []).filter((s) => s.merged === 1 && contains(s, span)).sort((a, b) => a.depth - b.depth));
  }
  chain.push(...(byLane.get(span.lane) ?? []).filter((s) => s.depth < span.depth && s.merged === 1 && contains(s, span)).sort((a, b) => a.depth - b.depth));
  return chain;
}
