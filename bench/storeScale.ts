/**
 * The run store at scale, which the tests count in files read but never time: `kde-profiler list`
 * on a runs folder of N finished runs, each listing a fresh process as a person's would be, and a
 * run's status writes in a store of N runs (what every run pays at each status it reaches: queued,
 * running, its end). The folder is made once the way the store lays it out (a folder per run,
 * config.json and status.json by the store's own atomic writer, then one store's first look writes
 * index.json) and kept for the next time. Prints each listing's wall and CPU time and whether it
 * rewrote index.json; then, per round, the median, 90th percentile and slowest of `--writes` status
 * writes of one run added for the round (and deleted after it, so the store keeps N runs).
 *
 *   node --import tsx bench/storeScale.ts [--runs 20000] [--dir /tmp/kde-store-20000] [--repeats 3]
 *                                         [--writes 40] [--write-rounds 3] [-- LIST_FLAGS…]
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { newRunId, RUN_FILES, RunStore, writeJsonAtomic, type RunStatusFile } from '../src/main/service/store';
import { median, printColumns } from './table';

const CLI_MAIN = fileURLToPath(new URL('../src/main/cli/main.ts', import.meta.url));
const STRATEGIES = ['reference', 'gemm', 'chunked'];

function statusOf(i: number): RunStatusFile {
  const created = new Date(Date.UTC(2024, 0, 1) + i * 60_000);
  const failed = i % 17 === 0;
  return {
    id: newRunId(created), status: failed ? 'failed' : 'completed', createdAt: created.toISOString(),
    finishedAt: new Date(created.getTime() + 30_000).toISOString(), ...(i % 5 === 0 ? { label: `sweep point ${i}` } : {}),
    dataset: 'preset:tiny', backend: 'wasm', strategies: STRATEGIES,
    headline: STRATEGIES.map((strategy, k) => ({ strategy, encodeMedianMs: 10 + k, decodeMedianMs: 100 + (i % 50), totalMedianMs: 110 + k + (i % 50) })),
    ...(failed ? { error: { name: 'AppError', code: 'RUN_FAILED', message: 'engine stopped responding' } } : {}),
  };
}

async function makeStore(dir: string, runs: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const config = { data: { kind: 'preset', name: 'tiny' }, backend: 'wasm', strategies: STRATEGIES, repeats: 3, warmup: 1 };
  for (let i = 0; i < runs; i += 200) {
    await Promise.all(Array.from({ length: Math.min(200, runs - i) }, async (_, k) => {
      const status = statusOf(i + k);
      await mkdir(join(dir, status.id));
      await writeJsonAtomic(join(dir, status.id, RUN_FILES.config), config, dir);
      await writeJsonAtomic(join(dir, status.id, RUN_FILES.status), status, dir);
    }));
  }
  await new RunStore(dir).init();
}

function indexStamp(dir: string): string {
  return execFileSync('stat', ['-c', '%i %Y', join(dir, 'index.json')], { encoding: 'utf8' });
}

/** the CLI's `list` in this process, printing nowhere, then this process's CPU time */
const LIST_SCRIPT = `
const { runCli } = await import(process.env.KDE_CLI_MAIN);
const { Writable } = await import('node:stream');
const sink = new Writable({ write: (_c, _e, done) => done() });
await runCli(JSON.parse(process.env.KDE_LIST_ARGS), { stdout: sink, stderr: process.stderr, cwd: process.cwd() });
const u = process.cpuUsage();
console.log(JSON.stringify({ cpuS: (u.user + u.system) / 1e6 }));`;

/** One listing in a process of its own, as a person's `kde-profiler list` is: wall time from here, CPU time from inside. */
function listOnce(dir: string, flags: string[]): { wallS: number; cpuS: number; rewrote: boolean } {
  const before = indexStamp(dir);
  const start = performance.now();
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', LIST_SCRIPT], {
    encoding: 'utf8', env: { ...process.env, KDE_CLI_MAIN: CLI_MAIN, KDE_LIST_ARGS: JSON.stringify(['list', '--runs-dir', dir, ...flags]) },
  });
  const wallS = (performance.now() - start) / 1000;
  const { cpuS } = JSON.parse(out.trim().split('\n').at(-1)!) as { cpuS: number };
  return { wallS, cpuS, rewrote: before !== indexStamp(dir) };
}

/** `writes` status writes of a run added to the store for the round, each timed on its own (ms); the run is deleted after. */
async function timeStatusWrites(dir: string, writes: number): Promise<number[]> {
  const store = new RunStore(dir);
  await store.init();
  const created = new Date();
  const status: RunStatusFile = { ...statusOf(0), id: newRunId(created), createdAt: created.toISOString(), status: 'queued', finishedAt: undefined };
  await store.create(status, { data: { kind: 'preset', name: 'tiny' } } as never);
  const ms: number[] = [];
  for (let i = 0; i < writes; i++) {
    const next: RunStatusFile = i === writes - 1 ? { ...status, status: 'completed', finishedAt: new Date().toISOString() } : { ...status, status: 'running' };
    const start = performance.now();
    await store.writeStatus(next);
    ms.push(performance.now() - start);
  }
  await store.delete(status.id);
  return ms;
}

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

const { values: args, positionals } = parseArgs({
  options: {
    runs: { type: 'string', default: '20000' }, dir: { type: 'string' }, repeats: { type: 'string', default: '3' },
    writes: { type: 'string', default: '40' }, 'write-rounds': { type: 'string', default: '3' },
  },
  allowPositionals: true,
});
const runs = Number(args.runs);
const dir = args.dir ?? join(tmpdir(), `kde-store-${runs}`);
if (!existsSync(join(dir, 'index.json'))) {
  console.log(`making ${runs} runs in ${dir} …`);
  await makeStore(dir, runs);
}
console.log(`index.json: ${((await stat(join(dir, 'index.json'))).size / 2 ** 20).toFixed(1)} MiB`);
const rows = Array.from({ length: Number(args.repeats) }, (_, i) => {
  const r = listOnce(dir, positionals);
  return [`${i + 1}`, r.wallS.toFixed(2), r.cpuS.toFixed(2), r.rewrote ? 'yes' : 'no'];
});
if (rows.length > 0) printColumns(`kde-profiler list ${positionals.join(' ')} on ${runs} runs`, ['listing', 'wall s', 'CPU s', 'rewrote index.json'], rows);

const writeRows: string[][] = [];
for (let round = 0; round < Number(args['write-rounds']); round++) {
  const ms = await timeStatusWrites(dir, Number(args.writes));
  writeRows.push([`${round + 1}`, median(ms).toFixed(2), percentile(ms, 0.9).toFixed(2), Math.max(...ms).toFixed(1)]);
}
if (writeRows.length > 0) printColumns(`a run's status write in a store of ${runs} runs (${args.writes} writes a round)`, ['round', 'median ms', 'p90 ms', 'slowest ms'], writeRows);
