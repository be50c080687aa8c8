/**
 * The stage's memory as the engine sees it: typed arrays (process.memoryUsage().arrayBuffers, where
 * every posterior buffer lives), sampled at each window's fullest point, less the lowest level seen
 * before the stage allocated. The process collects first where it exposes a collector (the engine
 * process does), and the level is read again just before each pass allocates its buffers: a
 * collection frees backing stores concurrently, so a level read right after it can still hold
 * buffers the likelihood left behind, which would hide what the stage holds.
 */
export class StageMemory {
  private base = Infinity;
  private peak = 0;

  constructor() {
    StageMemory.collect();
    this.beforeAllocating();
  }

  /** A full collection, where the process exposes one. */
  static collect(): void {
    (globalThis as { gc?: () => void }).gc?.();
  }

  beforeAllocating(): void {
    this.base = Math.min(this.base, process.memoryUsage().arrayBuffers);
  }

  sample(): void {
    this.peak = Math.max(this.peak, process.memoryUsage().arrayBuffers - this.base);
  }

  get measuredBytes(): number {
    return this.peak;
  }
}
