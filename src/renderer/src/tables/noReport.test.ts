import { describe, expect, it } from 'vitest';
import { runEntry } from '../testing/sampleData';
import { noReportText } from './noReport';

describe('noReportText', () => {
  it('says how far a cancelled run got and why it has no report', () => {
    const text = noReportText({
      entry: runEntry('r1', { status: 'cancelled', headline: [] }),
      progress: { fraction: 0.163, label: 'logsumexp-tiled · cold', elapsedMs: 9000, basis: 'time' },
    });
    expect(text).toBe('Run r1 was cancelled at 16 % (logsumexp-tiled · cold) and kept no report of what it measured. The timeline shows what it recorded.');
  });

  it('says so without a progress, and for a run still going', () => {
    expect(noReportText({ entry: runEntry('r2', { status: 'failed' }) })).toMatch(/^Run r2 failed and kept no report/);
    expect(noReportText({ entry: runEntry('r3', { status: 'running' }) })).toMatch(/is running: its report comes when it ends/);
  });
});
