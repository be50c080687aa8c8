import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/events';
import { PROGRESS_FILE, ProgressFiles, readLiveStateFile, readProgressFile } from './progressFile';

const RUN = '20250101-000000-abcdef';
const progress = (fraction: number): RunEvent => ({ type: 'progress', runId: RUN, progress: { fraction, label: `at ${fraction}`, elapsedMs: 1 } });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-progress-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('a run\'s progress file', () => {
  it('keeps the latest progress, written at most once per interval, and once more when the run ends', async () => {
    const file = join(dir, PROGRESS_FILE);
    const files = new ProgressFiles(() => file, dir, 100);
    files.note(progress(0.1));
    await new Promise((r) => setTimeout(r, 20));
    await files.settled();
    expect(await readProgressFile(file, RUN)).toEqual(progress(0.1));
    // within the interval: only the last of these is written, once it is up
    files.note(progress(0.2));
    files.note(progress(0.3));
    await files.settled();
    expect(await readProgressFile(file, RUN)).toEqual(progress(0.1));
    await new Promise((r) => setTimeout(r, 150));
    await files.settled();
    expect(await readProgressFile(file, RUN)).toEqual(progress(0.3));
    expect(await readProgressFile(file, '20250101-000000-000000')).toBeUndefined();

    // a cancelled run's last progress says where it stopped: what changed within the interval is written at the end
    files.note(progress(0.9));
    files.note({ type: 'status', runId: RUN, status: 'cancelled' });
    await files.settled();
    await new Promise((r) => setTimeout(r, 150));
    await files.settled();
    expect(await readProgressFile(file, RUN)).toEqual(progress(0.9));
    // no temporary file is left
    expect(await readdir(dir)).toEqual([PROGRESS_FILE]);
  });

  it('keeps the newest log lines beside the progress, the last ones written when the run ends', async () => {
    const file = join(dir, PROGRESS_FILE);
    const files = new ProgressFiles(() => file, dir, 100);
    const log = (seq: number, message: string): RunEvent => ({ type: 'log', runId: RUN, seq, level: seq === 2 ? 'error' : 'info', message });
    // a log line before any progress is kept too
    files.note(log(0, 'loaded'));
    await new Promise((r) => setTimeout(r, 20));
    await files.settled();
    expect(await readLiveStateFile(file, RUN)).toEqual({ progress: undefined, log: [{ seq: 0, level: 'info', message: 'loaded' }] });
    files.note(progress(0.4));
    files.note(log(1, 'repeat 3'));
    files.note(log(2, 'engine stopped responding'));
    files.note({ type: 'status', runId: RUN, status: 'failed' });
    await files.settled();
    const saved = await readLiveStateFile(file, RUN);
    expect(saved?.progress).toEqual(progress(0.4));
    expect(saved?.log.map((l) => l.message)).toEqual(['loaded', 'repeat 3', 'engine stopped responding']);
    expect(await readLiveStateFile(file, '20250101-000000-000000')).toBeUndefined();
  });
});
