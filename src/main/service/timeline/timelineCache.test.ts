import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../shared/events';
import { ndjsonLine } from '../../export';
import { TimelineCache } from './timelineCache';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'timeline-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const records: TraceRecord[] = [
  { ph: 'X', proc: 'engine', tid: 1, name: 'run', cat: 'engine', ts: 0, dur: 10 },
  { ph: 'C', proc: 'engine', name: 'engine memory (MB)', ts: 5, args: { rss: 100 } },
];

describe('TimelineCache', () => {
  it('reads a finished run once for both its timeline and its counters', async () => {
    const path = join(dir, 'events.ndjson');
    await writeFile(path, ndjsonLine(records));
    const cache = new TimelineCache();
    const index = await cache.get('r', path);
    expect(index.totalEvents).toBe(2);
    await rm(path);
    expect(await cache.get('r', path)).toBe(index);
    expect(await cache.counters('r', path)).toEqual([{ name: 'engine memory (MB)', key: 'rss', points: [[5, 100]] }]);
    cache.forget('r');
    await expect(cache.get('r', path)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
