/**
 * GPU time per kernel from timestamp queries, for a GPU track beside the host spans that issued
 * the work. While timing is on, every compute pass TensorFlow.js begins gets a beginning and an end
 * timestamp (Dawn's 65 µs quantization is off: backends.ts creates the instance so), and the
 * backend ends a pass after each dispatch (as it does under its own profiler, whose timestamps
 * the caller turns off), so a pass is one program. Each command buffer carries its passes' queries
 * resolved into buffers of its own, mapped after the submit without holding the queue.
 *
 * The GPU's clock has its own origin. A kernel cannot start before the host submitted it, so the
 * offset from GPU to host time is at least (host time at submit − GPU begin) for every pass; the
 * largest such bound over the passes seen so far is the offset used. It places every kernel no
 * earlier than its submit and the least-delayed one exactly at it; the offset only grows, so
 * kernels on the track never overlap.
 *
 * Timing one pass per kernel costs a submit and a small readback per kernel: it is for seeing
 * where GPU time goes, not for the timings a benchmark reports. The stage timer
 * (backends/stageTimer.ts) leaves the backend's batching alone and only ends a pass where a
 * span begins or ends, so a pass is the work of one span: no submit more, and one small readback
 * per submitted command buffer that nothing waits on. The timer's own readbacks are not counted
 * as the engine's (activity.ts asks `isTimerBuffer`).
 */

import type { DeviceSpan } from '../model';

/** One pass as the GPU ran it: on the GPU's clock until takeTimedPasses moves it to the host's. */
export interface TimedPass extends DeviceSpan {
  /** the order its pass was begun in (timingMark) */
  seq: number;
}

/** Passes per pooled query set; a command buffer with more takes another set. */
const PASSES_PER_SET = 128;
const QUERY_RESOLVE = 0x200;
const COPY_SRC = 0x4;
const COPY_DST = 0x8;
const MAP_READ = 0x1;

interface QuerySlots {
  querySet: { destroy(): void };
  resolve: GpuBufferLike;
  staging: GpuBufferLike;
}

interface GpuBufferLike {
  mapAsync(mode: number): Promise<void>;
  getMappedRange(): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}

interface DeviceLike {
  createQuerySet(d: { type: 'timestamp'; count: number }): { destroy(): void };
  createBuffer(d: { size: number; usage: number }): GpuBufferLike;
  features: { has(name: string): boolean };
}

interface EncoderLike {
  resolveQuerySet(set: unknown, first: number, count: number, dst: unknown, offset: number): void;
  copyBufferToBuffer(src: unknown, srcOffset: number, dst: unknown, dstOffset: number, size: number): void;
}

/** A query set's timed passes: the programs they ran and their order. */
interface SetTiming {
  slots: QuerySlots;
  names: string[];
  seqs: number[];
}

interface SubmittedTiming extends SetTiming {
  hostSubmitNs: bigint;
}

let device: DeviceLike | null = null;
let nameOfPipeline: (pipeline: unknown) => string = () => 'kernel';
let restoreBatchSize: (() => void) | null = null;
let timing = false;
const free: QuerySlots[] = [];
const timerBuffers = new WeakSet<object>();
/** per encoder, then per command buffer it finished into: its query sets, the last one filling */
const ofEncoder = new WeakMap<object, SetTiming[]>();
const ofPass = new WeakMap<object, { timing: SetTiming; index: number }>();
const ofCommandBuffer = new WeakMap<object, SetTiming[]>();
/** readbacks under way */
const reading = new Set<Promise<void>>();
let done: TimedPass[] = [];
let offsetNs: bigint | null = null;
let passesBegun = 0;
let installed = false;

type Method = (this: object, ...args: unknown[]) => unknown;

function wrap(proto: Record<string, unknown>, name: string, around: (original: Method) => Method): void {
  proto[name] = around(proto[name] as Method);
}

function acquireSlots(): QuerySlots {
  const reused = free.pop();
  if (reused) return reused;
  const bytes = PASSES_PER_SET * 2 * 8;
  const slots: QuerySlots = {
    querySet: device!.createQuerySet({ type: 'timestamp', count: PASSES_PER_SET * 2 }),
    resolve: device!.createBuffer({ size: bytes, usage: QUERY_RESOLVE | COPY_SRC }),
    staging: device!.createBuffer({ size: bytes, usage: MAP_READ | COPY_DST }),
  };
  timerBuffers.add(slots.staging);
  return slots;
}

/** Reads a submitted command buffer's timestamps once the GPU is done with it; the slots go back to the pool. */
function read(t: SubmittedTiming): Promise<void> {
  return t.slots.staging.mapAsync(MAP_READ).then(() => {
    const stamps = new BigUint64Array(t.slots.staging.getMappedRange().slice(0, t.names.length * 16));
    t.slots.staging.unmap();
    free.push(t.slots);
    t.names.forEach((name, i) => {
      const [begin, end] = [stamps[2 * i]!, stamps[2 * i + 1]!];
      // a pass the implementation did not stamp reads 0: nothing to place
      if (begin === 0n || end < begin) return;
      const bound = t.hostSubmitNs - begin;
      if (offsetNs === null || bound > offsetNs) offsetNs = bound;
      done.push({ name, startNs: begin, endNs: end, seq: t.seqs[i]! });
    });
  }, () => {
    // a device lost or destroyed mid-read: these kernels go untimed, the run is not the timer's to fail
  });
}

/** Passes begun while timing get timestamp writes in their encoder's query set; the pass remembers which slot it has. */
function timePasses(encoder: Record<string, unknown>): void {
  wrap(encoder, 'beginComputePass', (original) => function (this: object, ...args: unknown[]) {
    const descriptor = (args[0] ?? {}) as { timestampWrites?: unknown };
    if (!timing || descriptor.timestampWrites) return original.apply(this, args);
    const sets = ofEncoder.get(this) ?? [];
    ofEncoder.set(this, sets);
    let t = sets[sets.length - 1];
    if (!t || t.names.length >= PASSES_PER_SET) {
      t = { slots: acquireSlots(), names: [], seqs: [] };
      sets.push(t);
    }
    const index = t.names.length;
    t.names.push('kernel');
    t.seqs.push(passesBegun++);
    const timed = { ...descriptor, timestampWrites: { querySet: t.slots.querySet, beginningOfPassWriteIndex: 2 * index, endOfPassWriteIndex: 2 * index + 1 } };
    const passEncoder = original.apply(this, [timed, ...args.slice(1)]) as object;
    ofPass.set(passEncoder, { timing: t, index });
    return passEncoder;
  });
}

/** A timed pass takes its program's name from the pipeline it sets. */
function namePasses(pass: Record<string, unknown>): void {
  wrap(pass, 'setPipeline', (original) => function (this: object, ...args: unknown[]) {
    const p = ofPass.get(this);
    if (p) p.timing.names[p.index] = nameOfPipeline(args[0]);
    return original.apply(this, args);
  });
}

/** Finishing an encoder resolves its query sets into their staging buffers, in the same command buffer. */
function resolveOnFinish(encoder: Record<string, unknown>): void {
  wrap(encoder, 'finish', (original) => function (this: object, ...args: unknown[]) {
    const sets = ofEncoder.get(this) ?? [];
    const e = this as unknown as EncoderLike;
    for (const t of sets) {
      e.resolveQuerySet(t.slots.querySet, 0, 2 * t.names.length, t.slots.resolve, 0);
      e.copyBufferToBuffer(t.slots.resolve, 0, t.slots.staging, 0, 16 * t.names.length);
    }
    const commandBuffer = original.apply(this, args) as object;
    if (sets.length > 0) ofCommandBuffer.set(commandBuffer, sets);
    ofEncoder.delete(this);
    return commandBuffer;
  });
}

/** A submit notes the host's time and reads the submitted buffers' timestamps once the GPU is done. */
function readAfterSubmit(queue: Record<string, unknown>): void {
  wrap(queue, 'submit', (original) => function (this: object, ...args: unknown[]) {
    const hostSubmitNs = process.hrtime.bigint();
    const result = original.apply(this, args);
    for (const buffer of (args[0] as object[] | undefined) ?? []) {
      const sets = ofCommandBuffer.get(buffer) ?? [];
      ofCommandBuffer.delete(buffer);
      for (const t of sets) {
        const r = read({ ...t, hostSubmitNs });
        reading.add(r);
        void r.finally(() => reading.delete(r));
      }
    }
    return result;
  });
}

/**
 * Installs the wrappers once, on the WebGPU classes the global scope holds and the backend's
 * device. `pipelineName` names a pipeline for its span. Says whether timing is possible here (the
 * device has the timestamp-query feature and the classes have the methods).
 */
export function installGpuTimer(gpuDevice: unknown, pipelineName: (pipeline: unknown) => string): boolean {
  const d = gpuDevice as DeviceLike;
  if (!d?.features?.has('timestamp-query')) return false;
  device = d;
  nameOfPipeline = pipelineName;
  if (installed) return true;
  const g = globalThis as unknown as Record<string, { prototype: Record<string, unknown> } | undefined>;
  const encoder = g.GPUCommandEncoder?.prototype;
  const pass = g.GPUComputePassEncoder?.prototype;
  const queue = g.GPUQueue?.prototype;
  const methods: [Record<string, unknown> | undefined, string][] = [[encoder, 'beginComputePass'], [encoder, 'finish'], [pass, 'setPipeline'], [queue, 'submit']];
  if (!methods.every(([proto, name]) => typeof proto?.[name] === 'function')) return false;
  timePasses(encoder!);
  namePasses(pass!);
  resolveOnFinish(encoder!);
  readAfterSubmit(queue!);
  installed = true;
  return true;
}

/**
 * Turns per-kernel timing on or off. `onePerPass` makes the backend end a pass after each dispatch
 * and returns what restores it (not needed where the backend already does, as under its own timer).
 */
export function setGpuTiming(on: boolean, onePerPass?: () => () => void): void {
  if (on === timing) return;
  timing = on && device !== null;
  if (timing && onePerPass) restoreBatchSize = onePerPass();
  if (!timing && restoreBatchSize) {
    restoreBatchSize();
    restoreBatchSize = null;
  }
}

/** How many passes have been timed so far: a mark that gpuMsBetween takes. */
export function timingMark(): number {
  return passesBegun;
}

/** The GPU time of the passes begun between two marks, once their timestamps are back. */
export async function gpuMsBetween(from: number, to: number): Promise<number> {
  while (reading.size > 0) await Promise.all([...reading]);
  let ns = 0n;
  for (const s of done) if (s.seq >= from && s.seq < to) ns += s.endNs - s.startNs;
  return Number(ns) / 1e6;
}

export function gpuTimingOn(): boolean {
  return timing;
}

/** Whether a buffer is one of the timer's own (its readbacks are not the engine's). */
export function isTimerBuffer(buffer: object): boolean {
  return timerBuffers.has(buffer);
}

/**
 * The passes whose timestamps were submitted so far, on the host's clock, in the order the GPU
 * ran them; waits for their readbacks. Each pass is handed out once.
 */
export async function takeTimedPasses(): Promise<TimedPass[]> {
  while (reading.size > 0) await Promise.all([...reading]);
  const passes = done;
  done = [];
  const offset = offsetNs ?? 0n;
  return passes.sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0))
    .map((s) => ({ name: s.name, startNs: s.startNs + offset, endNs: s.endNs + offset, seq: s.seq }));
}

/**
 * The kernels whose timestamps were submitted so far, on the host's clock, in the order the GPU
 * ran them; waits for their readbacks. Each kernel is handed out once.
 */
export async function takeGpuSpans(): Promise<DeviceSpan[]> {
  return (await takeTimedPasses()).map(({ name, startNs, endNs }) => ({ name, startNs, endNs }));
}
