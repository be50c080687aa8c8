import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/events';
import { PROGRESS_FILE, ProgressFiles, readProgressFile } from './progressFile';

const RUN = '20250101-000000-abcdef';
const progress = (fraction: number): RunEvent => ({ type: 'progress', runId: RUN, progress: { fraction, label: `at ${fraction}`, elapsedMs: 1 } });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-progress-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('a run\'s progress file', () => {
  it('keeps the latest progress, written at most once per interval, and stops when the run ends', async () => {
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

    files.note(progress(0.9));
    files.note({ type: 'status', runId: RUN, status: 'completed' });
    await files.settled();
    await new Promise((r) => setTimeout(r, 150));
    // the last progress within the interval is not written once the run has ended; no temporary file is left
    expect(await readProgressFile(file, RUN)).toEqual(progress(0.3));
    expect(await readdir(dir)).toEqual([PROGRESS_FILE]);
  });
});
