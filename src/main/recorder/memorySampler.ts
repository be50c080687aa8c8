/**
 * Samples memory as trace counters (≥ 20 Hz) and keeps peaks, overall and per stage.
 *
 * Counters, each with a fixed key set and its unit in the name:
 *   `memory (MB)` {rss, heapUsed, external, arrayBuffers}  this process (process.memoryUsage)
 *   `tensors` {count, MB}                                  from the tensorMemory hook (tf.memory)
 *   `<label> rss (MB)` {rss}                               another process (the engine, seen from the service)
 *   `gpu memory (MB)` {used, total}                        GPU 0 from nvidia-smi, at a lower rate
 *
 * A timer cannot fire while this process computes synchronously (wasm), so the engine also calls
 * sampleNow() or markStage() at unit boundaries and sampleIfDue() at the end of every span (where
 * the span's tensors are still alive: at unit boundaries everything has been disposed, and tensor
 * bytes would read 0 for the whole run); the service samples the engine's RSS from outside.
 */
import { gpuMemory, sampleProcessRssBytes, type GpuMemoryInfo } from './processMemory';

export interface CounterSink {
  counter(name: string, values: Record<string, number>): void;
}

export interface TensorMemory {
  numTensors: number;
  numBytes: number;
}

export interface MemorySamplerOptions {
  sink: CounterSink;
  /** 40 ms = 25 Hz, a margin over the 20 Hz asked for since timers run late under load */
  intervalMs?: number;
  tensorMemory?: () => TensorMemory;
  /** sample another process's RSS as `<label> rss (MB)` */
  peer?: { pid: number; label: string };
  /** poll nvidia-smi (a process spawn each time, hence its own slower interval) */
  gpu?: boolean;
  gpuIntervalMs?: number;
  memoryUsage?: () => NodeJS.MemoryUsage;
  processRss?: (pid: number) => Promise<number | null>;
  gpuQuery?: () => Promise<GpuMemoryInfo[] | null>;
}

export interface MemoryPeaks {
  rssBytes: number;
  heapBytes: number;
  tensorBytes: number;
  tensorCount: number;
  peerRssBytes: number;
  gpuUsedBytes: number;
}

export interface MemorySummary extends MemoryPeaks {
  samples: number;
  /** peaks while each stage (markStage) was current */
  stages: Record<string, MemoryPeaks>;
}

interface Sample {
  rssBytes: number;
  heapBytes: number;
  tensorBytes?: number;
  tensorCount?: number;
}

const MB = 1024 * 1024;
const toMB = (bytes: number): number => Math.round((bytes / MB) * 1000) / 1000;

function emptyPeaks(): MemoryPeaks {
  return { rssBytes: 0, heapBytes: 0, tensorBytes: 0, tensorCount: 0, peerRssBytes: 0, gpuUsedBytes: 0 };
}

function raise(peaks: MemoryPeaks, key: keyof MemoryPeaks, value: number): void {
  if (value > peaks[key]) peaks[key] = value;
}

export class MemorySampler {
  private readonly options: MemorySamplerOptions;
  private readonly overall = emptyPeaks();
  private readonly stages = new Map<string, MemoryPeaks>();
  private stage: string | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private gpuTimer: ReturnType<typeof setInterval> | undefined;
  private peerInFlight = false;
  private gpuInFlight = false;
  private samples = 0;
  private lastSampleMs = -Infinity;
  /** set by stop(): a peer or GPU read still in flight must not add a counter after the trace was flushed */
  private stopped = false;

  constructor(options: MemorySamplerOptions) {
    this.options = options;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.stopped = false;
    this.sampleNow();
    this.timer = setInterval(() => this.sampleNow(), this.options.intervalMs ?? 40);
    this.timer.unref?.();
    if (this.options.gpu) {
      void this.sampleGpu();
      this.gpuTimer = setInterval(() => void this.sampleGpu(), this.options.gpuIntervalMs ?? 1000);
      this.gpuTimer.unref?.();
    }
  }

  /** Stops the timers after one last sample and returns the peaks. */
  stop(): MemorySummary {
    this.stopped = true;
    if (this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    this.sampleNow();
    if (this.gpuTimer !== undefined) clearInterval(this.gpuTimer);
    this.gpuTimer = undefined;
    return this.summary();
  }

  /**
   * Attributes the following samples to `name` (undefined: no stage). The sample taken at the
   * boundary counts for both stages: what is held at that moment belongs to each.
   */
  markStage(name: string | undefined): void {
    const sample = this.takeSample();
    this.noteSample(sample);
    this.stage = name;
    if (name !== undefined && !this.stages.has(name)) this.stages.set(name, emptyPeaks());
    this.noteSample(sample);
  }

  /** One synchronous sample of this process (and a peer read, if none is in flight). */
  sampleNow(): void {
    this.noteSample(this.takeSample());
  }

  /**
   * A sample if the last one is at least one interval old: cheap enough to call at every span end
   * of a compute loop, which keeps the rate near the timer's while the timer itself cannot fire.
   */
  sampleIfDue(nowMs: number = performance.now()): boolean {
    if (nowMs - this.lastSampleMs < (this.options.intervalMs ?? 40)) return false;
    this.sampleNow();
    return true;
  }

  summary(): MemorySummary {
    return { ...this.overall, samples: this.samples, stages: Object.fromEntries([...this.stages].map(([k, v]) => [k, { ...v }])) };
  }

  private takeSample(): Sample {
    const { sink } = this.options;
    const mem = (this.options.memoryUsage ?? process.memoryUsage)();
    this.samples++;
    this.lastSampleMs = performance.now();
    sink.counter('memory (MB)', {
      rss: toMB(mem.rss), heapUsed: toMB(mem.heapUsed), external: toMB(mem.external), arrayBuffers: toMB(mem.arrayBuffers),
    });
    const sample: Sample = { rssBytes: mem.rss, heapBytes: mem.heapUsed };
    if (this.options.tensorMemory) {
      const t = this.options.tensorMemory();
      sink.counter('tensors', { count: t.numTensors, MB: toMB(t.numBytes) });
      sample.tensorBytes = t.numBytes;
      sample.tensorCount = t.numTensors;
    }
    if (this.options.peer && !this.peerInFlight && !this.stopped) void this.samplePeer(this.options.peer);
    return sample;
  }

  private noteSample(sample: Sample): void {
    this.note('rssBytes', sample.rssBytes);
    this.note('heapBytes', sample.heapBytes);
    if (sample.tensorBytes !== undefined) this.note('tensorBytes', sample.tensorBytes);
    if (sample.tensorCount !== undefined) this.note('tensorCount', sample.tensorCount);
  }

  private note(key: keyof MemoryPeaks, value: number): void {
    raise(this.overall, key, value);
    if (this.stage !== undefined) raise(this.stages.get(this.stage)!, key, value);
  }

  private async samplePeer(peer: { pid: number; label: string }): Promise<void> {
    this.peerInFlight = true;
    try {
      const rss = await (this.options.processRss ?? sampleProcessRssBytes)(peer.pid);
      if (rss === null || this.stopped) return;
      this.options.sink.counter(`${peer.label} rss (MB)`, { rss: toMB(rss) });
      this.note('peerRssBytes', rss);
    } finally {
      this.peerInFlight = false;
    }
  }

  private async sampleGpu(): Promise<void> {
    if (this.gpuInFlight) return;
    this.gpuInFlight = true;
    try {
      const gpus = await (this.options.gpuQuery ?? gpuMemory)();
      const gpu = gpus?.[0];
      if (!gpu || this.stopped) return;
      this.options.sink.counter('gpu memory (MB)', { used: toMB(gpu.usedBytes), total: toMB(gpu.totalBytes) });
      this.note('gpuUsedBytes', gpu.usedBytes);
    } finally {
      this.gpuInFlight = false;
    }
  }
}
