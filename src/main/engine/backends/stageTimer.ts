/**
 * Stage times on the GPU's own clock, for calls whose stages do not wait for the device (a run's
 * warm repeats on webgpu, run as a decode runs). Waiting at each stage would cost a round trip
 * per stage that a decode never pays; instead, while the timer is open, the GPU timer stamps
 * every compute pass the backend begins, and each span's start and end end the pass the backend
 * has open, so every pass holds the work of exactly one innermost span. A span's GPU time is the
 * sum of the passes begun inside it, its self time that of the passes begun in it outside its
 * children. The backend's batching and submits are left as they are; the timestamps come back
 * with the submits, and close() waits for the last of them.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { StageClock } from '../../../shared/report';
import type { DeviceSpan, EngineProbe, GpuSpanTime } from '../model';
import { setGpuTiming, takeTimedPasses, timingMark, type TimedPass } from '../webgpu';
import { webGpuLane, webGpuTimerReady } from './gpuProfile';
import { isAsyncBackend } from './sync';

export interface StageTimer {
  /** where the active backend's stage times come from */
  readonly clock: StageClock;
  /** `inner` with each span's GPU time taken while the timer is open (elsewhere `inner` itself). */
  probe(inner: EngineProbe): EngineProbe;
  /**
   * Waits for the timestamps and stops timing: the spans closed since the timer opened, in close
   * order, and the passes on the host's clock, each named after the span whose work it holds, for
   * the trace's lane `lane`.
   */
  close(): Promise<{ spans: GpuSpanTime[]; passes: DeviceSpan[]; lane: string }>;
}

interface Frame {
  name: string;
  args?: Record<string, unknown>;
  /** the first pass begun inside it (timingMark) */
  from: number;
  /** the passes begun in it outside its children: [from, to) ranges */
  own: [number, number][];
}

interface Closed extends Frame {
  to: number;
}

/** Where nothing needs timing apart (the host's clock), or nothing can be timed from here (an untimed device, a pool's workers). */
export function untimedStageTimer(clock: Exclude<StageClock, 'gpu'>): StageTimer {
  return { clock, probe: (inner) => inner, close: async () => ({ spans: [], passes: [], lane: '' }) };
}

/** The clock of the active backend's stages in calls that do not wait for the device at each stage. */
export function stageClock(): StageClock {
  if (!isAsyncBackend()) return 'host';
  return tf.getBackend() === 'webgpu' && webGpuTimerReady() ? 'gpu' : 'unsplit';
}

/** Each pass's GPU ms by its seq, and the sum of a [from, to) range of them. */
function passSums(passes: readonly TimedPass[]): (from: number, to: number) => number {
  const ms = new Map<number, number>();
  for (const p of passes) ms.set(p.seq, Number(p.endNs - p.startNs) / 1e6);
  return (from, to) => {
    let sum = 0;
    for (let seq = from; seq < to; seq++) sum += ms.get(seq) ?? 0;
    return sum;
  };
}

/** The passes on the host's clock, each named after the innermost span it was begun in (else its program's name). */
function namedPasses(passes: readonly TimedPass[], closed: readonly Closed[]): DeviceSpan[] {
  const owner = new Map<number, string>();
  for (const c of closed) for (const [from, to] of c.own) for (let seq = from; seq < to; seq++) owner.set(seq, c.name);
  return passes.map((p) => ({ name: owner.get(p.seq) ?? p.name, startNs: p.startNs, endNs: p.endNs }));
}

/** Opens the stage timer of the active backend; on webgpu with timestamp queries it times every pass until closed. */
export function openStageTimer(): StageTimer {
  const clock = stageClock();
  if (clock !== 'gpu') return untimedStageTimer(clock);
  const backend = tf.backend() as unknown as { endComputePassEncoder?(): void };
  const stack: Frame[] = [];
  const closed: Closed[] = [];
  let segmentFrom = timingMark();
  // ends the open pass; the passes begun since the last cut are the work of the span on top
  const cut = (): number => {
    backend.endComputePassEncoder?.();
    const mark = timingMark();
    if (mark > segmentFrom) stack[stack.length - 1]?.own.push([segmentFrom, mark]);
    segmentFrom = mark;
    return mark;
  };
  const span = async <T>(name: string, fn: () => Promise<T> | T, args?: Record<string, unknown>): Promise<T> => {
    const frame: Frame = { name, args, from: cut(), own: [] };
    stack.push(frame);
    try {
      return await fn();
    } finally {
      const to = cut();
      // the engine is sequential: the span on top is this one
      stack.pop();
      closed.push({ ...frame, to });
    }
  };
  setGpuTiming(true);
  return {
    clock,
    probe: (inner) => ({
      span: (name, fn, args) => inner.span(name, () => span(name, fn, args), args),
      counter: (name, values) => inner.counter(name, values),
      instant: (name, args) => inner.instant(name, args),
      progress: (fraction, label) => inner.progress(fraction, label),
    }),
    async close() {
      setGpuTiming(false);
      const passes = await takeTimedPasses();
      const sum = passSums(passes);
      const spans = closed.map((c) => ({
        name: c.name, args: c.args, gpuMs: sum(c.from, c.to), gpuSelfMs: c.own.reduce((t, [from, to]) => t + sum(from, to), 0),
      }));
      return { spans, passes: namedPasses(passes, closed), lane: webGpuLane() };
    },
  };
}
