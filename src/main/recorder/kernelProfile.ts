/**
 * Per-kernel breakdown from tf.profile: the TensorFlow.js analog of the op counts the seeds read
 * from JAX's HLO. The input is typed by shape only so this module needs no tfjs import.
 *
 * tf.profile returns one shared object that its next call overwrites, so the aggregator copies
 * the numbers it needs when add() is called and keeps no reference to the entries.
 */
import type { KernelStat } from '../../shared/report';

/** The fields of tfjs's ProfileInfo.kernels[i] this module reads. */
export interface ProfiledKernel {
  name: string;
  bytesAdded?: number;
  totalBytesSnapshot?: number;
  tensorsAdded?: number;
  totalTensorsSnapshot?: number;
  inputShapes?: unknown;
  outputShapes?: unknown;
  /** a number, or {error: string} when the backend could not time the kernel; checked before use */
  kernelTimeMs?: unknown;
  extraInfo?: unknown;
}

function kernelMs(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

function isProfiledKernel(v: unknown): v is ProfiledKernel {
  return typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string';
}

export class KernelAggregator {
  private readonly byName = new Map<string, KernelStat>();
  /** calls whose time the backend could not measure (counted, with 0 ms) */
  untimedCalls = 0;

  /** Entries without a string name are skipped: the input comes from outside any type check. */
  add(kernels: Iterable<unknown>): void {
    for (const entry of kernels) {
      if (!isProfiledKernel(entry)) continue;
      const k = entry;
      let stat = this.byName.get(k.name);
      if (!stat) this.byName.set(k.name, (stat = { name: k.name, calls: 0, totalMs: 0, bytesAdded: 0 }));
      stat.calls++;
      const ms = kernelMs(k.kernelTimeMs);
      if (ms === undefined) this.untimedCalls++;
      else stat.totalMs += ms;
      if (typeof k.bytesAdded === 'number' && Number.isFinite(k.bytesAdded)) stat.bytesAdded += k.bytesAdded;
    }
  }

  /** By total time, largest first; ties by calls, then name, so the order is stable. */
  stats(): KernelStat[] {
    return [...this.byName.values()]
      .map((s) => ({ ...s }))
      .sort((a, b) => b.totalMs - a.totalMs || b.calls - a.calls || a.name.localeCompare(b.name));
  }
}

/** `kernels` as tf.profile lists them (ProfiledKernel-shaped); anything else is skipped. */
export function aggregateKernels(kernels: Iterable<unknown>): KernelStat[] {
  const agg = new KernelAggregator();
  agg.add(kernels);
  return agg.stats();
}
