/**
 * Another process on a runs folder, for the run store's tests (run with `node --import tsx`):
 *   add DIR COUNT   creates COUNT finished runs through its own RunStore, as a second CLI would;
 *   read DIR        lists, opens, exports and draws every run through a service, then tries to
 *                   create and delete a run, and prints what each call gave as one JSON object.
 */
import { gunzipSync } from 'node:zlib';
import type { RunIndexEntry } from '../../../shared/api';
import { parseRunConfig } from '../../../shared/config';
import { createProfilerService } from '../profilerService';
import { newRunId } from './runIds';
import { RunStore } from './runStore';
import { finishedStatus, outcome, type Outcome } from './runStoreTesting.testdata';

export type { Outcome };

export interface ReadReport {
  uid: number | undefined;
  runs: Outcome<RunIndexEntry[]>;
  /** per run: whether getRun gave its report */
  details: Record<string, Outcome<{ status: string; report: boolean }>>;
  /** per run and format: bytes exported */
  exports: Record<string, Record<string, Outcome<number>>>;
  /** per run: spans the timeline shows */
  timeline: Record<string, Outcome<number>>;
  create: Outcome<string>;
  delete: Outcome<string>;
}

const config = parseRunConfig({ data: { kind: 'preset', name: 'tiny' } });

async function addRuns(runsDir: string, count: number): Promise<string[]> {
  const store = new RunStore(runsDir);
  await store.init();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = newRunId();
    await store.create(finishedStatus(id), config);
    ids.push(id);
  }
  return ids;
}

async function readRuns(runsDir: string): Promise<ReadReport> {
  const service = createProfilerService({ runsDir });
  const listed = await outcome(() => service.listRuns());
  const report: ReadReport = {
    uid: process.getuid?.(), runs: listed, details: {}, exports: {}, timeline: {},
    create: { ok: '' }, delete: { ok: '' },
  };
  const ids = 'ok' in listed ? listed.ok.map((r) => r.id) : [];
  for (const id of ids) {
    report.details[id] = await outcome(async () => {
      const d = await service.getRun(id);
      return { status: d.entry.status, report: d.report !== null };
    });
    report.exports[id] = {};
    for (const format of ['trace', 'md', 'json', 'csv'] as const) {
      report.exports[id][format] = await outcome(async () => {
        const bytes = Buffer.from((await service.exportRun(id, format)).base64 ?? '', 'base64');
        return format === 'trace' ? gunzipSync(bytes).length : bytes.length;
      });
    }
    report.timeline[id] = await outcome(async () => (await service.getTimeline(id, { startUs: 0, endUs: 1e9, widthPx: 1000 })).spans.length);
  }
  report.create = await outcome(async () => {
    const store = new RunStore(runsDir);
    await store.init();
    const id = newRunId();
    await store.create(finishedStatus(id), config);
    return id;
  });
  if (ids[0] !== undefined) report.delete = await outcome(async () => (await service.deleteRun(ids[0]!), ids[0]!));
  await service.close();
  return report;
}

async function main(): Promise<void> {
  const [mode, runsDir, count] = process.argv.slice(2);
  if (!runsDir) throw new Error('usage: add DIR COUNT | read DIR');
  const result = mode === 'add' ? await addRuns(runsDir, Number(count)) : await readRuns(runsDir);
  process.stdout.write(JSON.stringify(result));
}

await main();
