import { describe, expect, it } from 'vitest';
import { MAX_NOTICE_LANES, MAX_NOTICE_POINTS, readRunEvent, type RunEvent } from './events';
import { parseServerMessage } from './wire';

const notice: RunEvent = {
  type: 'timeline', runId: 'r', latestUs: 12, lanesChanged: false,
  changed: [{ lane: { process: 'engine', thread: 1 }, startUs: 0, endUs: 12 }],
  counters: [{ proc: 'service', name: 'engine memory (MB)', key: 'rss', points: [[1, 100], [2, 101]] }],
};

describe('a run event where it enters the page', () => {
  it('takes every kind the service sends', () => {
    const events: RunEvent[] = [
      notice,
      { type: 'progress', runId: 'r', progress: { fraction: 0.5, label: 'reference · decode', elapsedMs: 10, etaMs: 5 } },
      { type: 'status', runId: 'r', status: 'failed', error: { name: 'AppError', code: 'RUN_FAILED', message: 'x' } },
      { type: 'log', runId: 'r', level: 'warn', message: 'careful' },
    ];
    for (const e of events) expect(readRunEvent(JSON.parse(JSON.stringify(e)))).toEqual(e);
    expect(parseServerMessage(JSON.stringify({ kind: 'event', runId: '*', event: notice }))).toEqual({ kind: 'event', runId: '*', event: notice });
  });

  it('refuses what no service sends, and a notice past its bounds', () => {
    const wide = { ...notice, changed: Array.from({ length: MAX_NOTICE_LANES + 1 }, () => notice.type === 'timeline' && notice.changed[0]) };
    const long = { ...notice, counters: [{ proc: 'engine', name: 'a', key: 'b', points: Array.from({ length: MAX_NOTICE_POINTS + 1 }, (_, i) => [i, i]) }] };
    for (const bad of [
      null, [], { type: 'trace', runId: 'r', records: [] }, { ...notice, runId: 7 }, { ...notice, latestUs: 'soon' }, { ...notice, lanesChanged: undefined },
      { ...notice, changed: [{ lane: { process: 'gpu', thread: 1 }, startUs: 0, endUs: 1 }] },
      { ...notice, counters: [{ proc: 'engine', name: 'a', key: 'b', points: [[1, null]] }] },
      wide, long, { type: 'status', runId: 'r', status: 'exploded' }, { type: 'progress', runId: 'r', progress: { fraction: 0.5 } },
    ]) expect(readRunEvent(bad)).toBeNull();
    expect(parseServerMessage(JSON.stringify({ kind: 'event', runId: 'r', event: long }))).toBeNull();
  });
});
