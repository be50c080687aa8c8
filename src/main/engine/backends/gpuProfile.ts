/**
 * The profiled call on webgpu with its kernels on the GPU's clock: TensorFlow.js's profiler runs
 * each kernel under the backend's timer, which ends a compute pass after every program; with the
 * backend's own timestamps off, the engine's GPU timer (webgpu/gpuTimer.ts) stamps those passes
 * instead, so each program gets a begin and an end on the device (a span on the GPU's lane) and
 * each kernel's time in the profile is the sum of its programs' device time, as before.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { DeviceSpan } from '../model';
import { gpuMsBetween, installGpuTimer, setGpuTiming, takeGpuSpans, timingMark } from '../webgpu';

/** The parts of TensorFlow.js's webgpu backend this module reads and swaps for the call. */
interface TimedBackend {
  device: unknown;
  pipelineCache: Record<string, unknown>;
  supportTimestampQuery: boolean;
  /** set once the backend has said it cannot time kernels: it would say so, wrongly, while its timestamps are off */
  hasTimestampQueryWarned: boolean;
  time(f: () => void): Promise<{ kernelMs: unknown }>;
}

let timerReady = false;
/** the GPU lane's name: the adapter the kernels ran on */
let lane = 'GPU';

/** Installs the GPU timer on the active webgpu backend (on `device`, the adapter's name); says whether its device can time kernels. */
export function installWebGpuTimer(device: string): boolean {
  const backend = tf.backend() as unknown as TimedBackend;
  const names = new WeakMap<object, string>();
  timerReady = installGpuTimer(backend.device, (pipeline) => {
    const known = names.get(pipeline as object);
    if (known) return known;
    // TensorFlow.js labels a pipeline with its program's class; the engine's programs are plain objects, named by shader key
    const label = (pipeline as { label?: string }).label;
    let name = label && label !== 'Object' ? label : 'kernel';
    if (name === 'kernel') {
      for (const [key, cached] of Object.entries(backend.pipelineCache)) if (cached === pipeline) name = key.split('_')[0]!;
    }
    names.set(pipeline as object, name);
    return name;
  });
  if (timerReady) lane = `GPU: ${device}`;
  return timerReady;
}

/** The lane the device's spans go on in the trace. */
export function webGpuLane(): string {
  return lane;
}

/** Whether the active webgpu backend's device can time its kernels (installWebGpuTimer said so). */
export function webGpuTimerReady(): boolean {
  return timerReady;
}

/**
 * fn under tf.profile with the GPU timer on, where it can be: its result, the profile, and the
 * device's spans. Elsewhere null (the caller profiles as before).
 */
export async function profileOnGpuClock<T>(
  fn: () => Promise<T>, profile: (fn: () => Promise<T>) => Promise<{ result: T; kernels: unknown[]; peakBytes: number }>,
): Promise<{ result: T; kernels: unknown[]; peakBytes: number; deviceSpans: DeviceSpan[] } | null> {
  if (!timerReady || tf.getBackend() !== 'webgpu') return null;
  const backend = tf.backend() as unknown as TimedBackend;
  const ownTimestamps = backend.supportTimestampQuery;
  // the backend's own method, called under the override and put back after (an instance property only while timing)
  const ownTime = backend.time.bind(backend);
  const ownProperty = Object.getOwnPropertyDescriptor(backend, 'time');
  const warned = backend.hasTimestampQueryWarned;
  backend.supportTimestampQuery = false;
  backend.hasTimestampQueryWarned = true;
  backend.time = async (f: () => void) => {
    const from = timingMark();
    const pending = ownTime(f);
    const to = timingMark();
    const res = await pending;
    res.kernelMs = await gpuMsBetween(from, to);
    return res;
  };
  setGpuTiming(true);
  try {
    const profiled = await profile(fn);
    return { ...profiled, deviceSpans: await takeGpuSpans() };
  } finally {
    setGpuTiming(false);
    if (ownProperty) Object.defineProperty(backend, 'time', ownProperty);
    else Reflect.deleteProperty(backend, 'time');
    backend.supportTimestampQuery = ownTimestamps;
    backend.hasTimestampQueryWarned = warned;
  }
}
