/**
 * A page that opens a run while it runs (a second tab, a link, a run another process started):
 * it sees the run from its start, and at once the progress the terminal shows.
 */
import { describe, expect, it } from 'vitest';
import type { CounterSeries, RunDetail } from '../../../shared/api';
import type { RunEvent } from '../../../shared/events';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { runDetail, runEntry } from '../testing/sampleData';
import { useLiveRunStore } from './liveRunStore';

const RUN = 'run-7';
const rss = (points: [number, number][], proc: 'engine' | 'service' = 'engine'): CounterSeries => ({ name: 'memory (MB)', key: 'rss', proc, points });
const notice = (points: [number, number][], proc: 'engine' | 'service' = 'engine'): RunEvent => ({
  type: 'timeline', runId: RUN, latestUs: points.at(-1)![0], changed: [], lanesChanged: false, counters: [{ proc, name: 'memory (MB)', key: 'rss', points }],
});

describe('a page that joins a live run late', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a), { fakeTimers: true });

  const running = () => {
    api.getRun = async (id) => ({ ...runDetail(id), report: null, entry: runEntry(id, { status: 'running' }) });
  };

  it('draws the counters from the run\'s start, continued by what it hears, each point once', async () => {
    running();
    // the service's history: the run is 3 s in when the page opens
    api.getCounters = async () => [rss([[0, 100], [1_000_000, 150], [2_000_000, 180], [3_000_000, 200]]), rss([[0, 40], [3_000_000, 42]], 'service')];
    const live = useLiveRunStore();
    await live.attach(RUN);
    // the next notice repeats the last point the answer held (they crossed), then goes on
    api.emit(notice([[3_000_000, 200], [4_000_000, 210]]));
    const engine = live.counters.find((s) => s.proc === 'engine');
    expect(engine?.points).toEqual([[0, 100], [1_000_000, 150], [2_000_000, 180], [3_000_000, 200], [4_000_000, 210]]);
    // a series that heard nothing since still shows its history, under its own process
    expect(live.counters.find((s) => s.proc === 'service')?.points).toEqual([[0, 40], [3_000_000, 42]]);
  });

  it('keeps what it heard while the history was on its way', async () => {
    running();
    let answer: (v: CounterSeries[]) => void = () => undefined;
    api.getCounters = () => new Promise((resolve) => (answer = resolve));
    const live = useLiveRunStore();
    const attached = live.attach(RUN);
    await Promise.resolve();
    api.emit(notice([[5_000_000, 300]]));
    answer([rss([[0, 100], [4_000_000, 250]])]);
    await attached;
    expect(live.counters.find((s) => s.proc === 'engine')?.points).toEqual([[0, 100], [4_000_000, 250], [5_000_000, 300]]);
  });

  it('shows at once the progress the run last reported, stage and time left, before any event comes', async () => {
    api.getRun = async (id) => ({
      ...runDetail(id), report: null, entry: runEntry(id, { status: 'running' }),
      progress: { fraction: 0.45, label: 'logsumexp · repeat 13', elapsedMs: 41_000, etaMs: 51_000, basis: 'time' },
    });
    const live = useLiveRunStore();
    await live.attach(RUN);
    expect(live.running).toBe(true);
    expect(live.progress?.label).toBe('logsumexp · repeat 13');
    expect(live.etaMs).toBe(51_000);
    expect(live.elapsedMs).toBe(41_000);
    // the events that follow are newer and take over
    api.emit({ type: 'progress', runId: RUN, progress: { fraction: 0.5, label: 'logsumexp · repeat 14', elapsedMs: 45_000, etaMs: 47_000, basis: 'time' } });
    expect(live.progress?.label).toBe('logsumexp · repeat 14');
  });

  it('shows the log lines from the run\'s start: those kept before it joined, then those it hears, each once', async () => {
    let answer: (d: RunDetail) => void = () => undefined;
    api.getRun = () => new Promise((resolve) => (answer = resolve));
    const live = useLiveRunStore();
    const attached = live.attach(RUN);
    await Promise.resolve();
    // heard while the record was on its way: line 2 is in both
    api.emit({ type: 'log', runId: RUN, seq: 2, level: 'warn', message: 'machine busy' });
    api.emit({ type: 'log', runId: RUN, seq: 3, level: 'info', message: 'repeat 4' });
    answer({
      ...runDetail(RUN), report: null, entry: runEntry(RUN, { status: 'running' }),
      log: [{ seq: 0, level: 'info', message: 'loaded' }, { seq: 1, level: 'info', message: 'backend wasm' }, { seq: 2, level: 'warn', message: 'machine busy' }],
    });
    await attached;
    expect(live.logs.map((l) => `${l.seq} ${l.message}`)).toEqual(['0 loaded', '1 backend wasm', '2 machine busy', '3 repeat 4']);
    api.emit({ type: 'log', runId: RUN, seq: 4, level: 'info', message: 'repeat 5' });
    expect(live.logs.at(-1)?.message).toBe('repeat 5');
  });
});
