/**
 * Position kernels kept with a fitted model, so a windowed decode builds each electrode's (E × P)
 * position kernel (or its stabilised factor) once, not once per window. What is kept is bounded by
 * the run's memory budget; past it a kernel is built for the call and freed after it, and the trace
 * says so with a `position-kernel recomputed` instant naming the electrode and the bytes.
 */
import * as tf from '@tensorflow/tfjs-core';
import { INSTANT } from '../../../shared/traceInstants';
import type { EngineProbe } from '../model';

export class PositionCache {
  private readonly entries = new Map<string, tf.Tensor[]>();
  private bytes = 0;

  /**
   * The kernels stored under key, else built now: kept when everything kept stays within
   * budgetBytes (the caller must not free them then), else handed over to the caller to free (`owned`).
   */
  async get<T extends tf.Tensor[]>(
    key: string, budgetBytes: number, probe: EngineProbe, build: () => Promise<T>,
  ): Promise<{ tensors: T; owned: boolean }> {
    const hit = this.entries.get(key);
    if (hit) return { tensors: hit as T, owned: false };
    const tensors = await build();
    if (budgetBytes <= 0) return { tensors, owned: true };
    const size = tensors.reduce((n, t) => n + t.size * 4, 0);
    if (this.bytes + size > budgetBytes) {
      probe.instant(INSTANT.positionKernelRecomputed, { key, bytes: size, cachedBytes: this.bytes, budgetBytes });
      return { tensors, owned: true };
    }
    this.entries.set(key, tensors);
    this.bytes += size;
    return { tensors, owned: false };
  }

  /** Whether kernels are kept under key (the next get finds them). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Keeps kernels built elsewhere (the fit) under key; their budget was checked by whoever built them. */
  put(key: string, tensors: tf.Tensor[]): void {
    this.entries.set(key, tensors);
    this.bytes += tensors.reduce((n, t) => n + t.size * 4, 0);
  }

  dispose(): void {
    for (const tensors of this.entries.values()) tf.dispose(tensors);
    this.entries.clear();
    this.bytes = 0;
  }
}
