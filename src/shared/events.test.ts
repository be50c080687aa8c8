import { describe, expect, it } from 'vitest';
import { MAX_KEPT_LOG_LINES, MAX_NOTICE_LANES, MAX_NOTICE_POINTS, mergeRunLogs, readRunEvent, readRunLog, type RunEvent, type RunLogLine } from './events';
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
      { type: 'log', runId: 'r', seq: 0, level: 'warn', message: 'careful' },
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
      { type: 'log', runId: 'r', level: 'info', message: 'no place in the log' }, { type: 'log', runId: 'r', seq: -1, level: 'info', message: 'x' },
      { type: 'log', runId: 'r', seq: 1.5, level: 'info', message: 'x' },
    ]) expect(readRunEvent(bad)).toBeNull();
    expect(parseServerMessage(JSON.stringify({ kind: 'event', runId: 'r', event: long }))).toBeNull();
  });
});

describe('a run\'s kept log', () => {
  const line = (seq: number): RunLogLine => ({ seq, level: 'info', message: `line ${seq}` });

  it('joins what a page was given late with what it heard since: each line once, in order', () => {
    expect(mergeRunLogs([line(0), line(1), line(2)], [line(2), line(3)]).map((l) => l.seq)).toEqual([0, 1, 2, 3]);
    expect(mergeRunLogs([line(3)], [line(0), line(1)]).map((l) => l.seq)).toEqual([0, 1, 3]);
  });

  it('keeps the newest lines only', () => {
    const many = Array.from({ length: MAX_KEPT_LOG_LINES + 50 }, (_, i) => line(i));
    const kept = mergeRunLogs(many, []);
    expect(kept).toHaveLength(MAX_KEPT_LOG_LINES);
    expect(kept[0]?.seq).toBe(50);
  });

  it('reads a saved log, leaving out what is not a log line', () => {
    expect(readRunLog([line(1), { seq: 'x', level: 'info', message: 'y' }, line(0), null, { ...line(2), extra: '<b>' }])).toEqual([line(0), line(1), line(2)]);
    expect(readRunLog({ not: 'a list' })).toEqual([]);
  });
});
