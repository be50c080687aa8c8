/**
 * The shards' traces on one clock. Each shard ran on its own machine with its own monotonic clock;
 * a shard marks the wall clock (NTP time, the one clock machines of a cluster share) at one moment
 * of its run clock, so its records can be moved onto a common time line: zero at the earliest
 * record of any shard. A shard without that mark (tracing off, or an older run) is placed at its
 * run's creation time, to the millisecond.
 *
 * Two forms come out: the merged run's events.ndjson, where each shard's threads are lanes of their
 * own (the timeline of the app reads it), and the Chrome trace, where each shard is a process of its
 * own with its engine's threads and its service's beside them.
 */
import { createWriteStream } from 'node:fs';
import { access, rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { InstantRecord, ProcessRole, SpanRecord, TraceRecord } from '../../shared/events';
import { AppError } from '../../shared/errors';
import { SHARD_CLOCK_INSTANT, SHARD_CPU_INSTANT } from '../data';
import { RUN_FILES } from '../engineProtocol';
import { normalizeTrace, PROCESS_IDS, readNdjsonRecords, type ChromeEvent } from '../export';
import type { ShardRun } from './shardRuns';

export type ShardClock = 'wall clock mark' | 'run creation time';

export interface ShardTimeline {
  run: ShardRun;
  /** the shard's records as it recorded them (its own run clock) */
  records: TraceRecord[];
  /** µs added to the shard's times to put them on the merged clock */
  offsetUs: number;
  /** what placed the shard on the merged clock */
  clock: ShardClock;
  /** the wall-clock time of the shard's run-clock zero */
  startedAt: string;
  host?: string;
  /** the shard's engine process from start to exit (else its run span, else its status times) */
  wallMs?: number;
  /** the shard's engine process CPU time, every thread */
  cpuMs?: number;
  /** the end of the shard's last record on the merged clock (0 when it recorded none) */
  endUs: number;
}

const isInstant = (r: TraceRecord, name: string): r is InstantRecord => r.ph === 'I' && r.name === name;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function spanMs(records: readonly TraceRecord[], proc: ProcessRole, name: string): number | undefined {
  const span = records.find((r): r is SpanRecord => r.ph === 'X' && r.proc === proc && r.name === name);
  return span ? span.dur / 1000 : undefined;
}

function statusMs(run: ShardRun): number | undefined {
  const s = run.status;
  if (!s?.finishedAt) return undefined;
  const ms = Date.parse(s.finishedAt) - Date.parse(s.createdAt);
  return Number.isFinite(ms) ? ms : undefined;
}

async function recordsOf(run: ShardRun): Promise<TraceRecord[]> {
  const path = `${run.dir}/${RUN_FILES.events}`;
  try {
    await access(path);
  } catch {
    return [];
  }
  return (await readNdjsonRecords(path)).records;
}

/** One shard's records and what they say about its clock, time and CPU; offsets are set by the caller. */
async function readTimeline(run: ShardRun): Promise<ShardTimeline & { originUnixMs: number; firstUs: number }> {
  const records = await recordsOf(run);
  const mark = records.find((r) => isInstant(r, SHARD_CLOCK_INSTANT) && num(r.args?.unixTimeMs) !== undefined) as InstantRecord | undefined;
  const originUnixMs = mark ? num(mark.args!.unixTimeMs)! - mark.ts / 1000 : Date.parse(run.status?.createdAt ?? run.report.createdAt);
  const cpu = records.find((r) => isInstant(r, SHARD_CPU_INSTANT)) as InstantRecord | undefined;
  const cpuMs = cpu ? (num(cpu.args?.userMs) ?? 0) + (num(cpu.args?.systemMs) ?? 0) : undefined;
  let firstUs = Infinity;
  let lastUs = -Infinity;
  for (const r of records) {
    if (r.ph === 'M') continue;
    firstUs = Math.min(firstUs, r.ts);
    lastUs = Math.max(lastUs, r.ph === 'X' ? r.ts + r.dur : r.ts);
  }
  const timeline: ShardTimeline & { originUnixMs: number; firstUs: number } = {
    run, records, offsetUs: 0, clock: mark ? 'wall clock mark' : 'run creation time', startedAt: new Date(originUnixMs).toISOString(),
    originUnixMs, firstUs: Number.isFinite(firstUs) ? firstUs : 0, endUs: Number.isFinite(lastUs) ? lastUs : 0,
  };
  const host = mark?.args?.host;
  if (typeof host === 'string') timeline.host = host;
  const wallMs = spanMs(records, 'service', 'engine process') ?? spanMs(records, 'engine', 'run') ?? statusMs(run);
  if (wallMs !== undefined) timeline.wallMs = wallMs;
  if (cpuMs !== undefined) timeline.cpuMs = cpuMs;
  return timeline;
}

/** The shards' records and their offsets onto one clock whose zero is the earliest record of any shard. */
export async function readShardTimelines(runs: readonly ShardRun[]): Promise<ShardTimeline[]> {
  const read = await Promise.all(runs.map(readTimeline));
  const zeroUnixMs = Math.min(...read.map((t) => t.originUnixMs + t.firstUs / 1000));
  return read.map(({ originUnixMs, firstUs: _first, ...t }) => {
    const offsetUs = Math.max(0, (originUnixMs - zeroUnixMs) * 1000);
    return { ...t, offsetUs, endUs: t.records.length > 0 ? t.endUs + offsetUs : 0 };
  });
}

const shardTag = (run: ShardRun): string => `shard ${run.shard.index}/${run.shard.count}`;

/** each shard's lanes in a tid range of their own in the merged events.ndjson */
const SHARD_TID_STRIDE = 1000;
const MAIN_TID = 1;

function laneTid(index: number, tid: number): number {
  const own = Number.isInteger(tid) && tid > 0 && tid < SHARD_TID_STRIDE ? tid : MAIN_TID;
  return (index + 1) * SHARD_TID_STRIDE + own;
}

/** One shard's records for the merged events.ndjson: shifted, on lanes of its own, its lanes and counters named after it. */
function shardEventRecords(t: ShardTimeline): TraceRecord[] {
  const { index } = t.run.shard;
  const tag = shardTag(t.run);
  const names = new Map<string, string>();
  const lanes = new Map<string, { proc: ProcessRole; tid: number }>();
  const out: TraceRecord[] = [];
  for (const r of t.records) {
    if (r.ph === 'M') {
      names.set(`${r.proc}|${r.tid}`, r.args.name);
    } else if (r.ph === 'C') {
      out.push({ ...r, name: `${tag} · ${r.name}`, ts: r.ts + t.offsetUs });
    } else {
      lanes.set(`${r.proc}|${r.tid}`, { proc: r.proc, tid: r.tid });
      out.push({ ...r, tid: laneTid(index, r.tid), ts: r.ts + t.offsetUs });
    }
  }
  const threads: TraceRecord[] = [...lanes.entries()].map(([key, { proc, tid }]) => ({
    ph: 'M', proc, tid: laneTid(index, tid), name: 'thread_name',
    args: { name: `${tag} · ${names.get(key) ?? (tid === MAIN_TID ? 'main' : `lane ${tid}`)}` },
  }));
  return [...threads, ...out];
}

/** The merged run's events.ndjson records: every shard, shifted onto the common clock, on its own lanes. */
export function mergedEventRecords(timelines: readonly ShardTimeline[]): TraceRecord[] {
  return timelines.flatMap(shardEventRecords);
}

/** a shard's service threads sit beside its engine's in the shard's process, above any engine tid */
const SERVICE_TID_BASE = 1000;

function shardProcessName(t: ShardTimeline): string {
  return `${shardTag(t.run)}${t.host ? ` on ${t.host}` : ''} · run ${t.run.runId}`;
}

/** One shard's events as a process of the Chrome trace: at its pid, its service's threads renumbered beside its engine's. */
function toShardProcess(pid: number): (ev: ChromeEvent) => ChromeEvent {
  return (ev) => {
    if (ev.pid !== PROCESS_IDS.service) return { ...ev, pid };
    const moved: ChromeEvent = { ...ev, pid, tid: SERVICE_TID_BASE + ev.tid };
    if (ev.ph === 'C') moved.name = `service · ${ev.name}`;
    if (ev.name === 'thread_name') {
      const name = String(ev.args?.name);
      moved.args = { name: name === 'service' ? name : `service · ${name}` };
    }
    if (ev.name === 'thread_sort_index') moved.args = { sort_index: SERVICE_TID_BASE + ev.tid };
    return moved;
  };
}

function shardProcessMetadata(t: ShardTimeline, pid: number): ChromeEvent[] {
  return [
    { ph: 'M', name: 'process_name', pid, tid: MAIN_TID, ts: 0, args: { name: shardProcessName(t) } },
    { ph: 'M', name: 'process_sort_index', pid, tid: MAIN_TID, ts: 0, args: { sort_index: pid } },
  ];
}

/** The Chrome trace's events: every shard's metadata first (the export profile), then every shard's events. */
function* chromeEvents(timelines: readonly ShardTimeline[]): Generator<ChromeEvent> {
  const shards = timelines.filter((t) => t.records.length > 0).map((t) => {
    const pid = t.run.shard.index + 1;
    // already ≥ 0 on the common clock, so the normalizer shifts nothing and the shards stay aligned
    const trace = normalizeTrace(t.records.map((r) => (r.ph === 'M' ? r : { ...r, ts: r.ts + t.offsetUs })));
    return { t, pid, trace, move: toShardProcess(pid) };
  });
  for (const { t, pid, trace, move } of shards) {
    yield* shardProcessMetadata(t, pid);
    // the normalizer names the service and engine processes; here the shard is the process
    for (const ev of trace.metadata) if (ev.name === 'thread_name' || ev.name === 'thread_sort_index') yield move(ev);
  }
  for (const { trace, move } of shards) for (const ev of trace.events()) yield move(ev);
}

const CHUNK_CHARS = 1 << 16;

function* traceText(events: Iterable<ChromeEvent>, otherData: Record<string, unknown>): Generator<string> {
  yield '{"traceEvents":[\n';
  let first = true;
  for (const ev of events) {
    yield (first ? '' : ',\n') + JSON.stringify(ev);
    first = false;
  }
  yield `\n],\n"otherData":${JSON.stringify(otherData)}}\n`;
}

async function writeChunks(out: Writable, chunks: Iterable<string>): Promise<void> {
  let pending = '';
  for (const chunk of chunks) {
    pending += chunk;
    if (pending.length < CHUNK_CHARS) continue;
    const ok = out.write(pending);
    pending = '';
    if (!ok) await once(out, 'drain');
  }
  if (pending) out.write(pending);
  out.end();
}

/**
 * Writes the merged Chrome trace (gzip), a process per shard on the common clock, through a
 * temporary file renamed at the end so a failed write leaves no truncated trace.
 */
export async function writeShardsTrace(path: string, timelines: readonly ShardTimeline[], otherData: Record<string, unknown>): Promise<void> {
  const tmp = `${path}.${process.pid}.partial`;
  const file = createWriteStream(tmp);
  const zip = createGzip();
  zip.pipe(file);
  try {
    const failed = new Promise<never>((_, reject) => {
      file.once('error', reject);
      zip.once('error', reject);
    });
    failed.catch(() => undefined);
    await Promise.race([writeChunks(zip, traceText(chromeEvents(timelines), { app: 'kde-profiler', ...otherData })), failed]);
    await Promise.race([finished(file), failed]);
    await rename(tmp, path);
  } catch (e) {
    file.destroy();
    zip.destroy();
    await rm(tmp, { force: true });
    throw new AppError('IO', `could not write the merged trace to ${path}: ${e instanceof Error ? e.message : String(e)}. Check that the runs folder is writable and has space.`, { file: path });
  }
}

/** Where each shard sits on the merged clock, for the trace's otherData and merge.json. */
export function shardClocks(timelines: readonly ShardTimeline[]): Record<string, unknown>[] {
  return timelines.map((t) => ({
    index: t.run.shard.index, runId: t.run.runId, clock: t.clock, startedAt: t.startedAt, offsetUs: t.offsetUs, ...(t.host ? { host: t.host } : {}),
  }));
}
