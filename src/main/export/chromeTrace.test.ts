import { afterAll, describe, it, expect } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { TraceRecord } from '../../shared/events';
import { buildChromeTrace, writeChromeTrace, type ChromeTraceFile } from './chromeTrace';
import { ndjsonLine, readNdjsonRecords } from './ndjsonRecords';
import type { ChromeEvent } from './traceNormalize';

const dir = mkdtempSync(join(tmpdir(), 'kde-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ns = (us: number): number => Math.round(us * 1000);

const sample: TraceRecord[] = [
  { ph: 'M', proc: 'engine', tid: 1, name: 'thread_name', args: { name: 'engine main' } },
  { ph: 'X', proc: 'engine', tid: 1, name: 'block', cat: 'engine', ts: 10.0004, dur: 5.0004 },
  { ph: 'X', proc: 'engine', tid: 1, name: 'decode', cat: 'engine', ts: 10, dur: 100.0004 },
  // both end at 110.0004 µs, but rounded separately to ns reduce ends at 110.001 µs, past decode (110 µs)
  { ph: 'X', proc: 'engine', tid: 1, name: 'reduce', cat: 'engine', ts: 60.0006, dur: 49.9998 },
  { ph: 'X', proc: 'service', tid: 2, name: 'spawn engine', cat: 'service', ts: 1, dur: 3 },
  { ph: 'C', proc: 'engine', name: 'memory (MB)', ts: 12, args: { rss: 100, heapUsed: 20 } },
  { ph: 'C', proc: 'engine', name: 'memory (MB)', ts: 20, args: { rss: 110 } },
  { ph: 'C', proc: 'engine', name: 'memory (MB)', ts: 30, args: { rss: 120, heapUsed: 25, external: Number.NaN } },
  { ph: 'I', proc: 'engine', tid: 1, name: 'warm-up done', cat: 'engine', ts: 50, s: 't' },
  { ph: 'X', proc: 'engine', tid: 0, name: 'bad tid', cat: 'engine', ts: 200, dur: 1 },
  { ph: 'X', proc: 'engine', tid: 1, name: 'negative', cat: 'engine', ts: 300, dur: -1 },
];

/** Checks the properties every exported trace must have, in integer ns like Perfetto. */
function checkProfile(trace: ChromeTraceFile): void {
  const evs = trace.traceEvents;
  const firstNonMeta = evs.findIndex((e) => e.ph !== 'M');
  expect(evs.slice(firstNonMeta).every((e) => e.ph !== 'M')).toBe(true);
  expect(trace).not.toHaveProperty('displayTimeUnit');
  const byThread = new Map<string, ChromeEvent[]>();
  for (const e of evs) {
    expect(Number.isInteger(e.pid) && e.pid > 0).toBe(true);
    expect(Number.isInteger(e.tid) && e.tid > 0).toBe(true);
    if (e.ph === 'M') continue;
    expect(e.ts).toBeGreaterThanOrEqual(0);
    expect(Math.abs(e.ts! * 1000 - ns(e.ts!))).toBeLessThan(1e-6);
    if (e.ph === 'X') {
      expect(e.dur).toBeGreaterThanOrEqual(0);
      const k = `${e.pid}|${e.tid}`;
      byThread.set(k, [...(byThread.get(k) ?? []), e]);
    }
  }
  for (const spans of byThread.values()) {
    const sorted = [...spans].sort((a, b) => ns(a.ts!) - ns(b.ts!) || ns(b.dur!) - ns(a.dur!));
    const open: number[] = [];
    for (const s of sorted) {
      const start = ns(s.ts!);
      const end = start + ns(s.dur!);
      while (open.length && open[open.length - 1]! <= start) open.pop();
      if (open.length) expect(end).toBeLessThanOrEqual(open[open.length - 1]!);
      open.push(end);
    }
  }
}

describe('buildChromeTrace', () => {
  const trace = buildChromeTrace(sample, { app: 'kde-profiler', version: '0.1.0', runId: 'r1' });

  it('puts process and thread metadata first, with names and sort indexes', () => {
    const meta = trace.traceEvents.filter((e) => e.ph === 'M');
    expect(trace.traceEvents.slice(0, meta.length)).toEqual(meta);
    const names = meta.map((e) => `${e.pid}/${e.tid} ${e.name}=${JSON.stringify(e.args)}`);
    expect(names).toContain('1/1 process_name={"name":"kde-profiler service"}');
    expect(names).toContain('2/1 process_name={"name":"kde-profiler engine"}');
    expect(names).toContain('2/1 thread_name={"name":"engine main"}');
    expect(names).toContain('1/2 thread_name={"name":"lane 2"}');
    expect(meta.filter((e) => e.name === 'thread_sort_index')).toHaveLength(meta.filter((e) => e.name === 'thread_name').length);
  });

  it('keeps the export profile: positive ids, ns-rounded times, nested spans', () => {
    checkProfile(trace);
    const reduce = trace.traceEvents.find((e) => e.name === 'reduce')!;
    expect(ns(reduce.ts!) + ns(reduce.dur!)).toBe(110_000);
    const badTid = trace.traceEvents.find((e) => e.name === 'bad tid')!;
    expect(badTid.tid).toBe(1);
    expect(trace.traceEvents.find((e) => e.name === 'negative')).toBeUndefined();
    expect(trace.otherData).toMatchObject({
      app: 'kde-profiler', version: '0.1.0', runId: 'r1',
      traceStats: { clampedSpans: 1, droppedRecords: 1, remappedTids: 1, spans: 5, counters: 3, instants: 1 },
    });
  });

  it('orders a thread parent-first when spans start together', () => {
    const engineSpans = trace.traceEvents.filter((e) => e.ph === 'X' && e.pid === 2).map((e) => e.name);
    expect(engineSpans.slice(0, 3)).toEqual(['decode', 'block', 'reduce']);
  });

  it('writes counters with one numeric key set per name', () => {
    const counters = trace.traceEvents.filter((e) => e.ph === 'C');
    expect(counters.map((c) => c.args)).toEqual([
      { rss: 100, heapUsed: 20, external: 0 },
      { rss: 110, heapUsed: 20, external: 0 },
      { rss: 120, heapUsed: 25, external: 0 },
    ]);
  });

  it('writes instants with an explicit scope', () => {
    expect(trace.traceEvents.find((e) => e.ph === 'I')).toMatchObject({ name: 'warm-up done', s: 't', pid: 2, tid: 1 });
  });

  it('shifts negative times so that every ts is ≥ 0', () => {
    const t = buildChromeTrace([
      { ph: 'X', proc: 'service', tid: 1, name: 'early', cat: 'service', ts: -2.5, dur: 5 },
      { ph: 'I', proc: 'service', tid: 1, name: 'mark', cat: 'service', ts: 0, s: 'p' },
    ], {});
    expect(t.traceEvents.filter((e) => e.ph !== 'M').map((e) => e.ts)).toEqual([0, 2.5]);
    expect(t.otherData).toMatchObject({ traceStats: { shiftUs: 2.5 } });
  });

  it('still names a process when there are no records', () => {
    const t = buildChromeTrace([], {});
    expect(t.traceEvents[0]).toMatchObject({ ph: 'M', name: 'process_name', pid: 1 });
  });
});

describe('writeChromeTrace', () => {
  it('round-trips through gzip and JSON.parse', async () => {
    const path = join(dir, 'small.json.gz');
    const stats = await writeChromeTrace(path, sample, { app: 'kde-profiler', version: '0.1.0' });
    const text = gunzipSync(readFileSync(path)).toString('utf8');
    expect(text.startsWith('{"traceEvents":[')).toBe(true);
    const parsed = JSON.parse(text) as ChromeTraceFile;
    expect(parsed).toEqual(JSON.parse(JSON.stringify(buildChromeTrace(sample, { app: 'kde-profiler', version: '0.1.0' }))));
    expect(stats.spans).toBe(5);
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('writes plain JSON when asked', async () => {
    const path = join(dir, 'small.json');
    await writeChromeTrace(path, sample, {}, { gzip: false });
    checkProfile(JSON.parse(readFileSync(path, 'utf8')) as ChromeTraceFile);
  });

  it('streams a 200k-event trace from an async source', async () => {
    async function* records(): AsyncGenerator<TraceRecord> {
      for (let i = 0; i < 100_000; i++) {
        const ts = i * 10;
        yield { ph: 'X', proc: 'engine', tid: 1, name: 'block', cat: 'engine', ts, dur: 9.999 };
        yield { ph: 'C', proc: 'engine', name: 'memory (MB)', ts: ts + 5, args: { rss: i % 100 } };
      }
    }
    const path = join(dir, 'big.json.gz');
    const stats = await writeChromeTrace(path, records(), { runId: 'big' });
    expect(stats).toMatchObject({ spans: 100_000, counters: 100_000 });
    const parsed = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as ChromeTraceFile;
    expect(parsed.traceEvents.filter((e) => e.ph !== 'M')).toHaveLength(200_000);
  });

  it('fails with an IO error naming the path when the folder is missing', async () => {
    const path = join(dir, 'missing', 'x.json');
    await expect(writeChromeTrace(path, sample, {})).rejects.toMatchObject({ code: 'IO', message: expect.stringContaining(path) });
  });
});

describe('readNdjsonRecords', () => {
  it('reads batches and tolerates a truncated last line', async () => {
    const path = join(dir, 'events.ndjson');
    const a = sample.slice(0, 3);
    const b = sample.slice(3, 6);
    const cut = ndjsonLine(sample.slice(6)).slice(0, 40);
    writeFileSync(path, ndjsonLine(a) + ndjsonLine(b) + cut);
    const read = await readNdjsonRecords(path);
    expect(read.records).toEqual([...a, ...b]);
    expect(read).toMatchObject({ batches: 2, badLines: 1, truncatedTail: true, invalidRecords: 0 });
  });

  it('skips entries that are not trace records', async () => {
    const path = join(dir, 'mixed.ndjson');
    writeFileSync(path, `${JSON.stringify([sample[1], { ph: 'Z' }, 3])}\n${JSON.stringify(sample[2])}\n`);
    const read = await readNdjsonRecords(path);
    expect(read.records).toEqual([sample[1], sample[2]]);
    expect(read).toMatchObject({ invalidRecords: 2, truncatedTail: false });
  });

  it('reports a missing file as NOT_FOUND', async () => {
    await expect(readNdjsonRecords(join(dir, 'nope.ndjson'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
