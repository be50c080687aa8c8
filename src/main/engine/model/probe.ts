/**
 * How the engine reports what it does: spans, counters, instants and progress. Implemented by the
 * recorder, so the engine never imports it; tfjs-free, so the recorder need not import the engine.
 */

/** Spans nest by call structure (await order). */
export interface EngineProbe {
  /** Runs fn as a named span. `sync` is awaited inside the span before it ends, so spans on
   *  asynchronous backends measure work, not dispatch. `args` is read when the span ends: fn may
   *  complete it with what it counted (a kernel's work). */
  span<T>(name: string, fn: () => Promise<T> | T, args?: Record<string, unknown>): Promise<T>;
  counter(name: string, values: Record<string, number>): void;
  instant(name: string, args?: Record<string, unknown>): void;
  /** fraction of the current unit of work (0..1) with a short label */
  progress(fraction: number, label: string): void;
}

/** A span the device timed (a GPU kernel), on the host's monotonic clock (process.hrtime.bigint()). */
export interface DeviceSpan {
  name: string;
  startNs: bigint;
  endNs: bigint;
}

/** A span of a call whose stages did not wait for the device, with the GPU time of the work it issued (backends/stageTimer.ts). */
export interface GpuSpanTime {
  name: string;
  args?: Record<string, unknown>;
  gpuMs: number;
  gpuSelfMs: number;
}

export const NULL_PROBE: EngineProbe = {
  span: async (_name, fn) => fn(),
  counter: () => undefined,
  instant: () => undefined,
  progress: () => undefined,
};
