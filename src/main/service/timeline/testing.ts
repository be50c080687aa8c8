/**
 * Test helpers: a recorded run made up for tests — nested spans (run › strategy › repeat ›
 * encode/decode › electrode › block › kernels) emitted when they end, the way a recorder emits them,
 * in batches, with memory counters, instants, thread names and the spans open after each batch.
 * Used only by the service's tests (the timeline's and the run store's) and bench/service.ts.
 */
import type { TraceRecord } from '../../../shared/events';
import { electrodeArgs, ELECTRODE_SPAN, STRATEGY_SPAN } from '../../../shared/traceSpans';
import type { OpenSpan } from '../../engineProtocol';
import { seededRandom } from '../../analysis';

export interface SimulatedBatch {
  records: TraceRecord[];
  /** what the run reports open once this batch arrived */
  open: OpenSpan[];
}


export function simulateRun(seed: number, options: { electrodes?: number; maxBlocks?: number } = {}): SimulatedBatch[] {
  const random = seededRandom(seed);
  const electrodes = options.electrodes ?? 4;
  const maxBlocks = options.maxBlocks ?? 4;
  const batches: SimulatedBatch[] = [];
  const stack: OpenSpan[] = [];
  let pending: TraceRecord[] = [{ ph: 'M', proc: 'engine', tid: 1, name: 'thread_name', args: { name: 'engine' } }];
  let nowUs = 0;
  let lastClosed: OpenSpan | undefined;
  const service: OpenSpan = { proc: 'service', tid: 1, name: 'engine process', startUs: 0 };

  const advance = (maxUs: number) => {
    nowUs += Math.round(random() * maxUs * 1000) / 1000;
  };
  const flush = () => {
    const open = [service, ...stack.map((o) => ({ ...o }))];
    // the open list can lag the trace by a message: the span that just ended may still be listed
    if (lastClosed && random() < 0.3) open.push({ ...lastClosed });
    batches.push({ records: pending, open });
    pending = [];
  };
  const span = (name: string, body: () => void, args?: Record<string, unknown>) => {
    advance(3);
    const o: OpenSpan = { proc: 'engine', tid: 1, name, startUs: nowUs, ...(args ? { args } : {}) };
    stack.push(o);
    body();
    stack.pop();
    advance(3);
    pending.push({ ph: 'X', proc: 'engine', tid: 1, name, cat: 'engine', ts: o.startUs, dur: nowUs - o.startUs, ...(args ? { args } : {}) });
    lastClosed = o;
    if (random() < 0.1) pending.push({ ph: 'C', proc: 'engine', name: 'engine memory (MB)', ts: nowUs, args: { rss: 100 + Math.round(random() * 50) } });
    if (random() < 0.02) pending.push({ ph: 'I', proc: 'engine', tid: 1, name: 'mark', cat: 'engine', ts: nowUs, s: 't' });
    if (random() < 0.15) flush();
  };
  const kernels = () => {
    for (let k = Math.floor(random() * 3); k > 0; k--) span(random() < 0.5 ? 'mark-kernel' : 'position-kernel', () => advance(20));
  };
  const stage = (name: string) =>
    span(name, () => {
      for (let e = 0; e < electrodes; e++) {
        span(ELECTRODE_SPAN, () => {
          for (let b = 1 + Math.floor(random() * maxBlocks); b > 0; b--) span('block', kernels, { b });
        }, electrodeArgs(e, `tet${String(e + 1).padStart(2, '0')}`));
      }
    });
  span('run', () => {
    for (const strategy of ['reference', 'compensated']) {
      span(STRATEGY_SPAN, () => {
        for (let r = 0; r < 2; r++) span('repeat', () => (stage('encode'), stage('decode')), { r });
      }, { strategy });
    }
  }, { runId: 'sim' });
  pending.push({ ph: 'X', proc: 'service', tid: 1, name: 'engine process', cat: 'service', ts: 0, dur: nowUs + 1 });
  flush();
  return batches;
}

/** run (0..n·10 µs) › n blocks of 8 µs, each with two 3 µs children: 3n + 1 spans */
export function nestedTrace(n: number): TraceRecord[] {
  const recs: TraceRecord[] = [
    { ph: 'M', proc: 'engine', tid: 1, name: 'thread_name', args: { name: 'engine' } },
    { ph: 'X', proc: 'engine', tid: 1, name: 'run', cat: 'engine', ts: 0, dur: n * 10 },
  ];
  for (let i = 0; i < n; i++) {
    const t = i * 10;
    recs.push({ ph: 'X', proc: 'engine', tid: 1, name: 'block', cat: 'engine', ts: t + 1, dur: 8, args: { i } });
    recs.push({ ph: 'X', proc: 'engine', tid: 1, name: 'position-kernel', cat: 'engine', ts: t + 1.5, dur: 3 });
    recs.push({ ph: 'X', proc: 'engine', tid: 1, name: 'mark-kernel', cat: 'engine', ts: t + 5, dur: 3 });
  }
  return recs;
}
