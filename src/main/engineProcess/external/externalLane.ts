/**
 * An external engine's messages as trace records on the run's clock: its spans on a thread lane of
 * its own in the `external` process, its counters and its process tree's RSS as counter tracks.
 *
 * The engine stamps times with the monotonic clock in nanoseconds, the clock the run records on;
 * the hello's stamp against ours at its arrival tells the offset, and an engine whose clock is
 * another (more than a second apart) is shifted onto ours at that moment.
 */
import type { CounterRecord, SpanRecord, ThreadNameRecord, TraceRecord } from '../../../shared/events';
import { hrtimeNowNs } from '../../recorder';
import type { CounterMessage, HelloMessage, SpanMessage } from './messages';

const MB = 1024 * 1024;
/** clocks further apart than this are taken for different clocks */
const SAME_CLOCK_NS = 1e9;

export interface LaneOptions {
  /** the engine's name in the run (`numpy`, `nld:clusterless_kde`) */
  name: string;
  /** the lane's thread id in the external process, one per engine of the run */
  tid: number;
  /** the run clock now, in µs */
  nowUs: () => number;
  /** the monotonic clock now, in ns (tests script it) */
  nowNs?: () => bigint;
}

export class ExternalLane {
  /** run-clock ns minus the engine's clock ns, set at the hello */
  private offsetNs: number | undefined;
  private readonly nowNs: () => bigint;

  constructor(private readonly o: LaneOptions) {
    this.nowNs = o.nowNs ?? hrtimeNowNs;
  }

  get rssCounter(): string {
    return `${this.o.name} memory (MB)`;
  }

  /** The lane's name record, and the clock offset from the hello. */
  hello(m: HelloMessage): TraceRecord[] {
    const runNs = this.o.nowUs() * 1000;
    const monoNs = Number(this.nowNs());
    const engineToMono = Math.abs(monoNs - m.tNs) > SAME_CLOCK_NS ? monoNs - m.tNs : 0;
    this.offsetNs = runNs - monoNs + engineToMono;
    const meta: ThreadNameRecord = { ph: 'M', proc: 'external', tid: this.o.tid, name: 'thread_name', args: { name: this.o.name } };
    return [meta];
  }

  /**
   * µs on the run clock of an engine timestamp taken now (the hello's offset when this lane heard
   * it; otherwise the engine is taken to share the monotonic clock)
   */
  hereUs(tNs: number): number {
    const runNs = this.o.nowUs() * 1000;
    return Math.round(tNs + (this.offsetNs ?? runNs - Number(this.nowNs()))) / 1000;
  }

  /** µs on the run clock of an engine timestamp; before the hello, the arrival time stands in */
  private us(tNs: number): number {
    if (this.offsetNs === undefined) return this.o.nowUs();
    return Math.round(tNs + this.offsetNs) / 1000;
  }

  span(m: SpanMessage): SpanRecord {
    const ts = this.us(m.startNs);
    const args = { ...m.args, engine: this.o.name };
    return { ph: 'X', proc: 'external', tid: this.o.tid, name: m.name, cat: 'external', ts, dur: Math.max(0, this.us(m.endNs) - ts), args };
  }

  counter(m: CounterMessage): CounterRecord {
    return { ph: 'C', proc: 'external', name: `${this.o.name} · ${m.name}`, ts: this.us(m.tNs), args: { value: m.value } };
  }

  /** the GPUs' used memory while the engine runs (nvidia-smi) */
  gpu(bytes: number): CounterRecord {
    return { ph: 'C', proc: 'external', name: `${this.o.name} GPU memory (MB)`, ts: this.o.nowUs(), args: { used: Math.round((bytes / MB) * 1000) / 1000 } };
  }

  rss(bytes: number): CounterRecord {
    return { ph: 'C', proc: 'external', name: this.rssCounter, ts: this.o.nowUs(), args: { rss: Math.round((bytes / MB) * 1000) / 1000 } };
  }
}
