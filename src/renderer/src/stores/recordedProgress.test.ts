import { describe, expect, it } from 'vitest';
import { report, runDetail, runEntry, strategyResult } from '../testing/sampleData';
import { recordedProgress } from './recordedProgress';

describe('recordedProgress', () => {
  it('gives nothing for a run that has not ended: its events will', () => {
    expect(recordedProgress({ ...runDetail('r'), entry: runEntry('r', { status: 'running' }) })).toBeNull();
    expect(recordedProgress({ ...runDetail('r'), entry: runEntry('r', { status: 'queued' }) })).toBeNull();
  });

  it('reads the wall time from createdAt to finishedAt, and none when either is missing or garbled', () => {
    const at = (finishedAt?: string) => recordedProgress({ ...runDetail('r'), entry: runEntry('r', { finishedAt }) })!;
    expect(at('2026-01-01T00:00:05.250Z').elapsedMs).toBe(5250);
    expect(at(undefined).elapsedMs).toBeUndefined();
    expect(at('not a date').elapsedMs).toBeUndefined();
    expect(at('2025-12-31T00:00:00.000Z').elapsedMs).toBeUndefined();
    expect(at(undefined).progress).toMatchObject({ fraction: 1, label: 'completed' });
  });

  it('counts the strategies a failed run finished, against those it was asked for', () => {
    const d = runDetail('r');
    const failed = recordedProgress({
      ...d,
      entry: runEntry('r', { status: 'failed' }),
      report: report({ status: 'failed', strategies: [strategyResult('reference', 10), { ...strategyResult('compensated', 5), status: 'failed' }] }),
    })!;
    expect(failed.progress?.fraction).toBe(0.5);
    expect(failed.note).toBe('1 of 2 strategies finished');
    const withEngines = recordedProgress({
      ...d,
      config: { ...d.config, engines: ['numpy', 'nld:clusterless_kde'] },
      entry: runEntry('r', { status: 'failed' }),
      report: report({
        status: 'failed',
        strategies: [
          { ...strategyResult('reference', 10), status: 'failed' }, strategyResult('compensated', 5),
          strategyResult('numpy', 8, { external: { engine: 'numpy', version: '2', device: 'cpu', dtype: 'float32', info: {}, command: ['python3'], exitCode: 0 } }),
        ],
      }),
    })!;
    expect(withEngines.progress?.fraction).toBe(0.5);
    expect(withEngines.note).toBe('1 of 2 strategies and 1 of 2 external engines finished');
    const bare = recordedProgress({ ...d, report: null, entry: runEntry('r', { status: 'cancelled' }) })!;
    expect(bare.progress).toBeNull();
    expect(bare.note).not.toBe('');
  });

  it('says how far a cancelled or interrupted run got from the last progress it saved, with or without a report', () => {
    const d = runDetail('r');
    const last = { fraction: 0.16, label: 'logsumexp-tiled · repeat 3', elapsedMs: 70_000, etaMs: 360_000, basis: 'time' as const };
    const cancelled = recordedProgress({ ...d, report: null, entry: runEntry('r', { status: 'cancelled' }), progress: last })!;
    expect(cancelled.note).toBe('stopped at 16 % (logsumexp-tiled · repeat 3)');
    expect(cancelled.progress).toMatchObject({ fraction: 0.16, label: 'cancelled' });
    const counted = { fraction: 3 / 17, label: 'reference · cold', elapsedMs: 900, basis: 'count' as const, count: { done: 3, total: 17, unit: 'steps' } };
    const interrupted = recordedProgress({
      ...d, entry: runEntry('r', { status: 'failed' }), progress: counted,
      report: report({ status: 'failed', strategies: [strategyResult('reference', 10), { ...strategyResult('compensated', 5), status: 'failed' }] }),
    })!;
    expect(interrupted.note).toBe('stopped at 3 of 17 steps (reference · cold); 1 of 2 strategies finished');
    // nothing saved and no report: the timeline beside it is what was recorded
    const bare = recordedProgress({ ...d, report: null, entry: runEntry('r', { status: 'cancelled' }) })!;
    expect(bare.note).toBe('no progress was recorded: the timeline shows how far it got');
  });
});
