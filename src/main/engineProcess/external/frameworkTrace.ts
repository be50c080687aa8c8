/**
 * A framework's own trace of one call (JAX's profiler writes Chrome trace JSON) brought into the
 * run: its complete events as spans on lanes of their own under the engine's, named after its
 * threads, placed on the run clock at the moment the engine says the traced call began. The file
 * is the engine's, so it is read bounded: its size, its inflated size, its events and its lanes.
 */
import type { SpanRecord, ThreadNameRecord, TraceRecord } from '../../../shared/events';
import { gunzipBounded, readUntrustedFile } from '../../data';

const MAX_FILE_BYTES = 64 * 2 ** 20;
const MAX_JSON_BYTES = 256 * 2 ** 20;
export const MAX_IMPORTED_SPANS = 200_000;
/** a framework's threads beyond this share the last lane */
const MAX_LANES = 32;
const MAX_ARGS = 8;
const MAX_TEXT = 200;

interface ChromeEvent {
  ph?: unknown;
  name?: unknown;
  pid?: unknown;
  tid?: unknown;
  ts?: unknown;
  dur?: unknown;
  args?: unknown;
}

export interface ImportOptions {
  /** the engine's name: the lanes are "<engine> · <thread>" */
  engine: string;
  /** the imported lanes' thread ids are laneBase + 1, laneBase + 2, … in the external process */
  laneBase: number;
  /** where on the run clock (µs) the trace's first event goes */
  startUs: number;
}

export interface ImportedTrace {
  records: TraceRecord[];
  spans: number;
  /** spans left out past MAX_IMPORTED_SPANS */
  dropped: number;
  /** spans left out because they overlap another on their lane without nesting in it */
  overlapping: number;
}

const ns = (us: number): number => Math.round(us * 1000) / 1000;

/**
 * Keeps the spans that nest: one that starts inside another on its lane and ends after it (JAX's
 * profiler records its own frames so) would be hidden by DevTools and break speedscope's stacks.
 */
function nestedOnly(spans: SpanRecord[]): { kept: SpanRecord[]; overlapping: number } {
  const byLane = new Map<number, SpanRecord[]>();
  for (const s of spans) {
    const lane = byLane.get(s.tid);
    if (lane) lane.push(s);
    else byLane.set(s.tid, [s]);
  }
  const kept: SpanRecord[] = [];
  let overlapping = 0;
  for (const lane of byLane.values()) {
    lane.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const openEnds: number[] = [];
    for (const s of lane) {
      while (openEnds.length > 0 && openEnds[openEnds.length - 1]! <= s.ts) openEnds.pop();
      const parentEnd = openEnds.at(-1);
      let end = ns(s.ts + s.dur);
      if (parentEnd !== undefined && end >= parentEnd) {
        // ending with its parent (to within a nanosecond a level) it ends just inside it: importers
        // that order equal ends by their own rules would otherwise close the parent first
        if (end - parentEnd > 0.001 * (openEnds.length + 1)) {
          overlapping++;
          continue;
        }
        end = ns(parentEnd - 0.001);
        s.dur = Math.max(0, ns(end - s.ts));
      }
      openEnds.push(end);
      kept.push(s);
    }
  }
  return { kept, overlapping };
}

async function readEvents(path: string, within: string): Promise<ChromeEvent[]> {
  let bytes: Buffer = await readUntrustedFile(path, { maxBytes: MAX_FILE_BYTES, within });
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = await gunzipBounded(bytes, MAX_JSON_BYTES, path);
  const parsed = JSON.parse(bytes.toString('utf8')) as unknown;
  const events = Array.isArray(parsed) ? parsed : (parsed as { traceEvents?: unknown } | null)?.traceEvents;
  if (!Array.isArray(events)) throw new Error(`${path} is not a Chrome trace: no traceEvents list`);
  return events as ChromeEvent[];
}

function shortArgs(args: unknown): Record<string, string | number> | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(args).slice(0, MAX_ARGS)) {
    if (typeof v === 'number' && Number.isFinite(v)) out[k.slice(0, MAX_TEXT)] = v;
    else if (typeof v === 'string') out[k.slice(0, MAX_TEXT)] = v.slice(0, MAX_TEXT);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Lanes by the framework's (pid, tid), named from its thread_name metadata. */
class Lanes {
  private readonly ids = new Map<string, number>();
  private readonly names = new Map<string, string>();

  constructor(private readonly o: ImportOptions) {}

  name(e: ChromeEvent): void {
    const n = (e.args as { name?: unknown } | undefined)?.name;
    if (e.name === 'thread_name' && typeof n === 'string') this.names.set(`${String(e.pid)}/${String(e.tid)}`, n.slice(0, MAX_TEXT));
  }

  tid(e: ChromeEvent): number {
    const key = `${String(e.pid)}/${String(e.tid)}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.o.laneBase + Math.min(this.ids.size + 1, MAX_LANES);
      this.ids.set(key, id);
    }
    return id;
  }

  records(): ThreadNameRecord[] {
    const named = new Map<number, string>();
    for (const [key, id] of this.ids) if (!named.has(id)) named.set(id, `${this.o.engine} · ${this.names.get(key) ?? `thread ${key}`}`);
    return [...named].map(([tid, name]) => ({ ph: 'M', proc: 'external', tid, name: 'thread_name', args: { name } }));
  }
}

/** The trace's complete events as spans on the run clock; throws when the file is not a readable trace. */
export async function importFrameworkTrace(path: string, within: string, o: ImportOptions): Promise<ImportedTrace> {
  const events = await readEvents(path, within);
  const lanes = new Lanes(o);
  const complete: ChromeEvent[] = [];
  let originUs = Infinity;
  for (const e of events) {
    if (typeof e !== 'object' || e === null) continue;
    if (e.ph === 'M') lanes.name(e);
    else if (e.ph === 'X' && typeof e.ts === 'number' && Number.isFinite(e.ts) && typeof e.dur === 'number' && e.dur >= 0) {
      complete.push(e);
      originUs = Math.min(originUs, e.ts);
    }
  }
  const kept = complete.slice(0, MAX_IMPORTED_SPANS);
  const spans: SpanRecord[] = kept.map((e) => {
    const args = shortArgs(e.args);
    const span: SpanRecord = {
      ph: 'X', proc: 'external', tid: lanes.tid(e), name: (typeof e.name === 'string' ? e.name : '?').slice(0, MAX_TEXT), cat: 'framework',
      ts: ns(o.startUs + ((e.ts as number) - originUs)), dur: ns(e.dur as number),
    };
    if (args) span.args = args;
    return span;
  });
  const { kept: nested, overlapping } = nestedOnly(spans);
  return { records: [...lanes.records(), ...nested], spans: nested.length, dropped: complete.length - kept.length, overlapping };
}
