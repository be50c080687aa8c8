/**
 * The trace of a production decode, replayed on simulated clocks through the project's own
 * Recorder: an engine process with a main thread and a pool of worker threads, the electrodes
 * spread over the workers, nested spans run › strategy › repeat › encode/decode › electrode N ›
 * block › kernel/gemm/logsumexp, memory counters on every thread and the service's RSS samples,
 * a few instants. Nothing is computed: each duration is drawn from a seeded stream, so the same
 * shape gives the same trace, and the run is as long as its spans say, not as long as it takes to
 * write them.
 */
import type { CounterRecord, TraceRecord } from '../../src/shared/events';
import { ENGINE_RSS_COUNTER } from '../../src/main/service';
import { Recorder } from '../../src/main/recorder';
import { seededRandom } from '../../src/main/analysis';

export interface TraceShape {
  /** records to aim for; the trace lands within a few per cent of it (whole blocks, timed samples) */
  targetEvents: number;
  electrodes: number;
  /** engine pool worker threads, beside the engine's main thread */
  workers: number;
  strategies: readonly string[];
  /** warm-up plus measured passes per strategy, each an encode and a decode */
  passes: number;
  seed: number;
}

export const DEFAULT_SHAPE: Omit<TraceShape, 'targetEvents'> = {
  electrodes: 64,
  workers: 2,
  strategies: ['reference', 'logsumexp', 'compensated'],
  passes: 3,
  seed: 1,
};

/** the engine's pool lanes: worker i records on thread WORKER_TID_BASE + i (poolProtocol.ts) */
const WORKER_TID_BASE = 2;
/** the service samples the engine's RSS at 20 Hz */
const RSS_SAMPLE_US = 50_000;
const RSS_BATCH = 10;
/** records of one decode block: the block span and its three stages */
const RECORDS_PER_BLOCK = 4;
/** records of one electrode's fit: its span, four stages, the worker's tensor counter */
const RECORDS_PER_ENCODE_ELECTRODE = 6;
/** the electrode span and the worker's tensor counter, around its blocks */
const RECORDS_PER_DECODE_ELECTRODE = 2;

/** one thread's clock: it moves only when the simulation says time has passed */
class SimClock {
  ns = 0n;
  readonly now = (): bigint => this.ns;
  advanceUs(us: number): void {
    this.ns += BigInt(Math.max(0, Math.round(us * 1000)));
  }
}

interface Lane {
  rec: Recorder;
  clock: SimClock;
}

/** blocks per decoded electrode, in decode order, so the whole trace comes near the target */
export function blockPlan(shape: TraceShape): number[] {
  const decodes = shape.strategies.length * shape.passes * shape.electrodes;
  const perPass = 4 + shape.electrodes * (RECORDS_PER_ENCODE_ELECTRODE + RECORDS_PER_DECODE_ELECTRODE) + 4;
  const fixed = 12 + shape.workers * 2 + shape.strategies.length * (2 + shape.passes * perPass);
  const blocks = Math.max(decodes, Math.floor((shape.targetEvents - fixed) / RECORDS_PER_BLOCK));
  const base = Math.floor(blocks / decodes);
  const extra = blocks - base * decodes;
  return Array.from({ length: decodes }, (_, i) => base + (i < extra ? 1 : 0));
}

/** the engine process of one synthetic run: its threads, each a recorder on a simulated clock */
class SyntheticEngine {
  readonly service: Lane;
  readonly main: Lane;
  readonly workers: Lane[];
  readonly random: () => number;
  private readonly blocks: number[];
  private decodeIndex = 0;
  private tensors = 0;

  constructor(private readonly shape: TraceShape, onBatch: (records: TraceRecord[]) => void) {
    this.random = seededRandom(shape.seed);
    const lane = (proc: 'service' | 'engine', tid: number, laneName: string): Lane => {
      const clock = new SimClock();
      return { clock, rec: new Recorder({ proc, tid, laneName, originNs: 0n, nowNs: clock.now, onBatch, maxBatchRecords: 2_000 }) };
    };
    this.service = lane('service', 1, 'service');
    this.main = lane('engine', 1, 'engine');
    this.workers = Array.from({ length: shape.workers }, (_, w) => lane('engine', WORKER_TID_BASE + w, `worker ${w}`));
    this.blocks = blockPlan(shape);
  }

  /** the whole run inside the service's "engine process" span; returns its length in µs */
  async run(): Promise<number> {
    const { service, main } = this;
    let totalUs = 0;
    await this.span(service, 'engine process', async () => {
      await this.prepare();
      await this.span(main, 'run', () => this.strategies(), { runId: 'synthetic' });
      main.rec.instant('run finished');
      service.clock.ns = main.clock.ns;
      service.clock.advanceUs(2_000);
      totalUs = Number(service.clock.ns) / 1000;
    }, { pid: 4242 });
    for (const l of [main, ...this.workers, service]) l.rec.close();
    return totalUs;
  }

  private jitter(meanUs: number): number {
    return meanUs * (0.5 + this.random());
  }

  /** a span on a lane, and the little time a real thread spends before it opens the next one */
  private async span(l: Lane, name: string, body: () => unknown, args?: Record<string, unknown>): Promise<void> {
    await l.rec.span(name, body, args);
    l.clock.advanceUs(0.2 + this.random() * 0.8);
  }

  private stage(l: Lane, name: string, meanUs: number): Promise<void> {
    return this.span(l, name, () => l.clock.advanceUs(this.jitter(meanUs)));
  }

  private async prepare(): Promise<void> {
    const { main } = this;
    await this.stage(main, 'load-data', 45_000);
    await this.stage(main, 'backend-init', 12_000);
    await this.span(main, 'calibrate', async () => {
      for (let i = 0; i < 4; i++) await this.stage(main, 'calibration probe', 2_000);
    });
    main.rec.instant('calibrated', { gflops: 12.5 });
    await this.span(main, 'workers-start', async () => {
      const startNs = main.clock.ns;
      for (const l of this.workers) {
        l.clock.ns = startNs;
        await this.stage(l, 'backend-init', 9_000);
        if (l.clock.ns > main.clock.ns) main.clock.ns = l.clock.ns;
      }
      main.clock.advanceUs(500);
    }, { workers: this.shape.workers });
  }

  private async strategies(): Promise<void> {
    const { main, shape } = this;
    for (const strategy of shape.strategies) {
      await this.span(main, 'strategy', async () => {
        main.rec.instant('strategy resolved', { strategy, electrodes: shape.electrodes });
        for (let r = 0; r < shape.passes; r++) {
          await this.span(main, 'repeat', async () => {
            await this.span(main, 'encode', () => this.encode(strategy));
            await this.span(main, 'decode', () => this.decode(strategy));
          }, { r, warmup: r === 0 });
        }
      }, { strategy });
    }
  }

  private async encode(strategy: string): Promise<void> {
    await this.stage(this.main, 'occupancy', 800);
    await this.onWorkers((l, e) => this.span(l, 'electrode', async () => {
      await this.stage(l, 'ground-process', 400);
      await this.stage(l, 'kernel', 250);
      await this.stage(l, 'kernel', 250);
      await this.stage(l, 'gemm', 300);
    }, { electrodeIndex: e, electrode: `e${e}`, strategy, nEnc: 2000 + Math.round(this.random() * 6000) }));
    this.mainMemory();
  }

  private async decode(strategy: string): Promise<void> {
    const first = this.decodeIndex;
    this.decodeIndex += this.shape.electrodes;
    await this.onWorkers((l, e) => {
      const n = this.blocks[first + e]!;
      return this.span(l, 'electrode', async () => {
        for (let b = 0; b < n; b++) {
          await this.span(l, 'block', async () => {
            await this.stage(l, 'kernel', 60);
            await this.stage(l, 'gemm', 90);
            await this.stage(l, 'logsumexp', 30);
            l.clock.advanceUs(this.jitter(4));
          }, { block: b });
        }
      }, { electrodeIndex: e, electrode: `e${e}`, strategy, nEnc: 4000, nDec: n * 100 });
    });
    this.mainMemory();
  }

  /** each worker takes its electrodes (e mod workers) from now on the main thread; main waits for the last */
  private async onWorkers(electrode: (l: Lane, e: number) => Promise<void>): Promise<void> {
    const { main, shape } = this;
    const startNs = main.clock.ns;
    let endNs = startNs;
    for (const [w, l] of this.workers.entries()) {
      // a thread's clock never goes back: a worker still busy starts when it is free
      if (l.clock.ns < startNs) l.clock.ns = startNs;
      l.clock.advanceUs(this.jitter(40));
      for (let e = w; e < shape.electrodes; e += shape.workers) {
        await electrode(l, e);
        l.rec.counter(`worker ${w} tensors`, { count: (this.tensors += 3), MB: this.tensorMB() });
        // a sink writing to disk gets the event loop between electrodes, so its buffer drains as we go
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (l.clock.ns > endNs) endNs = l.clock.ns;
    }
    main.clock.ns = endNs;
    main.clock.advanceUs(this.jitter(30));
  }

  private tensorMB(): number {
    return Math.round(this.tensors * 0.37 * 1000) / 1000;
  }

  private mainMemory(): void {
    const { rec } = this.main;
    rec.counter('memory (MB)', { rss: 300 + Math.round(this.random() * 200), heapUsed: 80 + Math.round(this.random() * 40), external: 40, arrayBuffers: 20 });
    rec.counter('tensors', { count: this.tensors, MB: this.tensorMB() });
  }
}

/**
 * Replays the trace, handing each batch of records to `onBatch` as the recorders would hand them
 * to the service; returns the run's length in µs.
 */
export async function replayTrace(shape: TraceShape, onBatch: (records: TraceRecord[]) => void): Promise<number> {
  const engine = new SyntheticEngine(shape, onBatch);
  const totalUs = await engine.run();
  emitRss(totalUs, engine.random, onBatch);
  return totalUs;
}

/** the service's samples of the engine's RSS, on the engine's process track, in its batches */
function emitRss(totalUs: number, random: () => number, onBatch: (records: TraceRecord[]) => void): void {
  let batch: CounterRecord[] = [];
  for (let ts = 0; ts <= totalUs; ts += RSS_SAMPLE_US) {
    const rss = 350 + 150 * Math.sin(ts / 4e6) + random() * 20;
    batch.push({ ph: 'C', proc: 'engine', name: ENGINE_RSS_COUNTER, ts, args: { rss: Math.round(rss * 1000) / 1000 } });
    if (batch.length >= RSS_BATCH) {
      onBatch(batch);
      batch = [];
    }
  }
  if (batch.length > 0) onBatch(batch);
}
