/**
 * The engine's memory as the service sees it from outside: RSS samples turned into counter
 * records on the engine's process track, handed on in small batches.
 */
import type { CounterRecord, TraceRecord } from '../../../shared/events';
import { startRssSampler, type RssSampler } from '../../host';
import { sampleProcessRssBytes } from '../../recorder';

export const ENGINE_RSS_COUNTER = 'engine memory (MB)';
const RSS_BATCH = 10;
const MB = 1024 * 1024;

export interface EngineRssOptions {
  pid: number;
  /** whether the run keeps a trace: without one the samples still feed the report's peak */
  trace: boolean;
  nowUs: () => number;
  onRecords: (records: TraceRecord[]) => void;
  readRssBytes?: (pid: number) => Promise<number | null>;
}

export interface EngineRss {
  readonly sampler: RssSampler;
  /** stops sampling and hands on the samples not yet sent */
  stop(): void;
}

export function sampleEngineRss(o: EngineRssOptions): EngineRss {
  let buffer: CounterRecord[] = [];
  const flush = () => {
    if (buffer.length > 0) o.onRecords(buffer);
    buffer = [];
  };
  const sampler = startRssSampler({
    pid: o.pid,
    readRssBytes: o.readRssBytes ?? sampleProcessRssBytes,
    nowUs: o.nowUs,
    onSample: (s) => {
      if (!o.trace) return;
      // the engine's memory belongs on the engine's process track, whoever measured it
      buffer.push({ ph: 'C', proc: 'engine', name: ENGINE_RSS_COUNTER, ts: s.tsUs, args: { rss: Math.round((s.rssBytes / MB) * 1000) / 1000 } });
      if (buffer.length >= RSS_BATCH) flush();
    },
  });
  return {
    sampler,
    stop: () => {
      sampler.stop();
      flush();
    },
  };
}
