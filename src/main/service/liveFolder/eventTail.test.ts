import { appendFile, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../../shared/events';
import { EventTail } from './eventTail';

const span = (name: string): TraceRecord => ({ ph: 'X', proc: 'engine', tid: 1, name, cat: 'c', ts: 0, dur: 1 });
const line = (...names: string[]) => `${JSON.stringify(names.map(span))}\n`;
const names = (records: readonly TraceRecord[]) => records.map((r) => r.name);

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-tail-'));
  path = join(dir, 'events.ndjson');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the tail of another process\'s event log', () => {
  it('hands back the records of complete lines, and holds a line being written until its end', async () => {
    const tail = new EventTail(path);
    expect(await tail.read()).toEqual({ records: [], more: false });
    const second = line('c');
    await writeFile(path, line('a', 'b') + second.slice(0, 10));
    expect(names((await tail.read()).records)).toEqual(['a', 'b']);
    await appendFile(path, second.slice(10));
    expect(names((await tail.read()).records)).toEqual(['c']);
    expect((await tail.read()).records).toEqual([]);
  });

  it('reads a long backlog a bounded slice at a time, and skips a line longer than the bound without holding it', async () => {
    const tail = new EventTail(path, { maxReadBytes: 200, maxLineBytes: 150 });
    await writeFile(path, line('a') + line('b') + line('c') + line('d'));
    const seen: string[] = [];
    for (let more = true, reads = 0; more; reads++) {
      expect(reads).toBeLessThan(10);
      const r = await tail.read();
      seen.push(...names(r.records));
      more = r.more;
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    await appendFile(path, line(...Array.from({ length: 20 }, (_, i) => `long${i}`)) + line('e'));
    const after: string[] = [];
    for (let i = 0; i < 10; i++) after.push(...names((await tail.read()).records));
    expect(after).toEqual(['e']);
  });

  it('stops at a file that shrank under it (replaced), and drops lines that are not trace records', async () => {
    const tail = new EventTail(path);
    await writeFile(path, `${line('a')}not json\n[{"ph":"?"}]\n`);
    expect(names((await tail.read()).records)).toEqual(['a']);
    await truncate(path, 0);
    await writeFile(path, line('z'));
    expect(await tail.read()).toEqual({ records: [], more: false });
  });
});
