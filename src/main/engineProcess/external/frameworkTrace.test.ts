import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFrameworkTrace } from './frameworkTrace';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-fw-trace-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const options = { engine: 'nld:clusterless_kde', laneBase: 100, startUs: 1_000_000 };

describe("a framework's trace brought into the run", () => {
  it('places its first event at the start it was given, a lane per framework thread, short args only', async () => {
    const events = [
      { ph: 'M', name: 'thread_name', pid: 1, tid: 9, args: { name: 'XLA ops' } },
      { ph: 'X', name: 'fusion', pid: 1, tid: 9, ts: 2_000_500, dur: 30, args: { hlo: 'fusion.2', nested: { x: 1 } } },
      { ph: 'X', name: 'call', pid: 1, tid: 3, ts: 2_000_000, dur: 900 },
      { ph: 'B', name: 'ignored', pid: 1, tid: 3, ts: 2_000_001 },
      { ph: 'X', name: 'bad', pid: 1, tid: 3, ts: 'soon', dur: 1 },
    ];
    await writeFile(join(dir, 'a.json.gz'), gzipSync(JSON.stringify({ traceEvents: events })));
    const t = await importFrameworkTrace(join(dir, 'a.json.gz'), dir, options);
    expect(t).toMatchObject({ spans: 2, dropped: 0 });
    const spans = t.records.filter((r) => r.ph === 'X');
    expect(spans).toEqual([
      { ph: 'X', proc: 'external', tid: 101, name: 'fusion', cat: 'framework', ts: 1_000_500, dur: 30, args: { hlo: 'fusion.2' } },
      { ph: 'X', proc: 'external', tid: 102, name: 'call', cat: 'framework', ts: 1_000_000, dur: 900 },
    ]);
    expect(t.records.filter((r) => r.ph === 'M').map((r) => [r.tid, (r.args as { name: string }).name])).toEqual([
      [101, 'nld:clusterless_kde · XLA ops'], [102, 'nld:clusterless_kde · thread 1/3'],
    ]);
  });

  it('refuses what is not a trace, and a link out of the engine folder', async () => {
    await writeFile(join(dir, 'b.json'), JSON.stringify({ hello: 1 }));
    await expect(importFrameworkTrace(join(dir, 'b.json'), dir, options)).rejects.toThrow(/not a Chrome trace/);
    await symlink('/etc/passwd', join(dir, 'c.json'));
    await expect(importFrameworkTrace(join(dir, 'c.json'), dir, options)).rejects.toThrow();
  });
});
