/**
 * What the WebGPU device was asked to do, counted where every caller's work passes (Dawn's own
 * prototypes): compute dispatches, compute pipelines created (each a shader compilation) and bytes
 * mapped for reading (what came back to the host). TensorFlow.js's programs and the engine's own
 * pass through the same methods, so the counts are the device's, not an estimate. Installed once,
 * when the webgpu backend starts; a stage span reads the difference across itself.
 */
import { isTimerBuffer } from './gpuTimer';

export interface GpuActivity {
  dispatches: number;
  pipelines: number;
  readBytes: number;
  /** buffers mapped for reading: each a round trip that waits for the device to finish */
  readbacks: number;
}

const totals: GpuActivity = { dispatches: 0, pipelines: 0, readBytes: 0, readbacks: 0 };
let installed = false;

/** GPUMapMode.READ */
const MAP_READ = 1;

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Counts each call of proto[name] before it runs; a method the runtime lacks is left alone. */
function wrap(proto: Record<string, unknown>, name: string, count: (self: unknown, args: unknown[]) => void): void {
  const original = proto[name];
  if (typeof original !== 'function') return;
  proto[name] = function (this: unknown, ...args: unknown[]) {
    count(this, args);
    return (original as Method).apply(this, args);
  };
}

/**
 * Counts from now on, on the WebGPU classes the global scope holds (Dawn's, once the backend has
 * installed them). Says whether it could: a runtime whose classes are missing counts nothing, and
 * the stage spans then say nothing of the GPU rather than 0.
 */
export function installGpuActivity(): boolean {
  if (installed) return true;
  const g = globalThis as unknown as Record<string, { prototype: Record<string, unknown> } | undefined>;
  const pass = g.GPUComputePassEncoder?.prototype;
  const device = g.GPUDevice?.prototype;
  const buffer = g.GPUBuffer?.prototype;
  if (!pass || !device || !buffer) return false;
  wrap(pass, 'dispatchWorkgroups', () => void totals.dispatches++);
  wrap(pass, 'dispatchWorkgroupsIndirect', () => void totals.dispatches++);
  wrap(device, 'createComputePipeline', () => void totals.pipelines++);
  wrap(device, 'createComputePipelineAsync', () => void totals.pipelines++);
  wrap(buffer, 'mapAsync', (self, args) => {
    // the GPU timer's timestamps are the profiler's readback, not the engine's
    if (((args[0] as number) & MAP_READ) === 0 || isTimerBuffer(self as object)) return;
    totals.readBytes += (args[2] as number | undefined) ?? (self as { size: number }).size - ((args[1] as number | undefined) ?? 0);
    totals.readbacks++;
  });
  installed = true;
  return true;
}

/** The counts so far in this process, or null where they are not counted. */
export function gpuActivity(): GpuActivity | null {
  return installed ? { ...totals } : null;
}

/** What happened between two readings. */
export function activitySince(before: GpuActivity, after: GpuActivity): GpuActivity {
  return {
    dispatches: after.dispatches - before.dispatches, pipelines: after.pipelines - before.pipelines,
    readBytes: after.readBytes - before.readBytes, readbacks: after.readbacks - before.readbacks,
  };
}
