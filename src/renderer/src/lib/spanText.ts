/**
 * How the timeline writes a span for a person: its stable name with which one it was, read from its
 * args ("block 3", "electrode tet03"). The service's search matches the same text.
 */
import type { TimelineSpan } from '../../../shared/api';
import { spanLabel } from '../../../shared/traceSpans';

export function spanText(span: Pick<TimelineSpan, 'name' | 'args'>): string {
  return spanLabel(span.name, span.args);
}

/** Whether the lower-cased `search` is in the span's name or its label. */
export function spanMatches(span: Pick<TimelineSpan, 'name' | 'args'>, search: string): boolean {
  return span.name.toLowerCase().includes(search) || spanText(span).toLowerCase().includes(search);
}
