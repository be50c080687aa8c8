/**
 * The shard runs a merge is asked for: found from run ids, run folders or folders of runs, read,
 * and checked to be the shards of one run — one fingerprint, one split, one configuration, every
 * shard index once and every electrode once. A refusal names the shard (and its run) that is
 * missing, duplicated or different, so the user knows which task to rerun or leave out.
 */
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import type { RunConfig } from '../../shared/config';
import { AppError } from '../../shared/errors';
import type { Report, ShardInfo } from '../../shared/report';
import { RUN_ID_PATTERN } from '../../shared/runIds';
import { RUN_FILES } from '../engineProtocol';
import { parseReport } from '../export';
import { readJson, type RunStatusFile } from '../service';

export interface ShardRun {
  /** the run's folder */
  dir: string;
  runId: string;
  report: Report;
  shard: ShardInfo;
  fingerprint: string;
  /** the run's status file; a copy of a run's outputs (run --out) has none */
  status?: RunStatusFile;
}

/** "shard 1/3 (run 20250101-120000-a1b2c3)": how every message names a shard */
export function shardName(run: ShardRun): string {
  return `shard ${run.shard.index}/${run.shard.count} (run ${run.runId})`;
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function hasReport(dir: string): Promise<boolean> {
  try {
    return (await stat(join(dir, RUN_FILES.report))).isFile();
  } catch {
    return false;
  }
}

interface Candidate {
  dir: string;
  /** named by the user (a run id or a run folder), not found inside a folder of runs */
  named: boolean;
}

/** The run folders one argument stands for: a run id in the runs folder, a run folder, or a folder of runs. */
async function candidatesOf(source: string, runsDir: string): Promise<Candidate[]> {
  if (RUN_ID_PATTERN.test(source)) {
    const dir = join(runsDir, source);
    if (await isFolder(dir)) return [{ dir, named: true }];
    throw new AppError('NOT_FOUND', `run ${source} is not in ${runsDir}: pass --runs-dir where the shards ran, or the shards' run folders.`, { key: source });
  }
  if (!isAbsolute(source)) throw new AppError('BAD_ARGUMENT', `${source}: a run folder must be given as an absolute path.`, { file: source });
  let info;
  try {
    info = await stat(source);
  } catch {
    throw new AppError('NOT_FOUND', `${source} does not exist: give run ids, run folders, or a folder holding the shards' run folders.`, { file: source });
  }
  if (!info.isDirectory()) throw new AppError('BAD_ARGUMENT', `${source} is not a folder: give run ids, run folders, or a folder holding them.`, { file: source });
  if (await hasReport(source)) return [{ dir: source, named: true }];
  const children = (await readdir(source)).sort().map((name) => join(source, name));
  const runs: Candidate[] = [];
  for (const dir of children) if (await hasReport(dir)) runs.push({ dir, named: false });
  if (runs.length === 0) {
    throw new AppError('NOT_FOUND', `${source} holds no finished run: neither it nor any folder in it has a ${RUN_FILES.report}.`, { file: source });
  }
  return runs;
}

/** A shard run read from its folder; undefined for a run that is not a shard, found inside a folder of runs. */
async function readShardRun(candidate: Candidate): Promise<ShardRun | undefined> {
  const file = join(candidate.dir, RUN_FILES.report);
  const report = parseReport(await readFile(file, 'utf8'), file);
  const status = await readJson<RunStatusFile>(join(candidate.dir, RUN_FILES.status));
  const runId = report.runId ?? status?.id ?? basename(candidate.dir);
  if (!report.shard) {
    if (!candidate.named) return undefined;
    throw new AppError('BAD_ARGUMENT', `run ${runId} (${candidate.dir}) is not a shard: it ran without --shard I/N, so there is nothing to merge it with.`, { file });
  }
  if (!report.fingerprint) {
    throw new AppError('BAD_ARGUMENT', `run ${runId} (${candidate.dir}) says it is shard ${report.shard.index}/${report.shard.count} but has no dataset fingerprint: rerun that shard with this kde-profiler.`, { file });
  }
  const run: ShardRun = { dir: candidate.dir, runId, report, shard: report.shard, fingerprint: report.fingerprint };
  if (status) run.status = status;
  return run;
}

/**
 * The shard runs the arguments name, each folder once (a run named twice, by id and by folder, is
 * one run). Relative folders are refused: the caller resolves them against its own working folder.
 */
export async function findShardRuns(sources: readonly string[], runsDir: string): Promise<ShardRun[]> {
  if (sources.length === 0) throw new AppError('BAD_ARGUMENT', 'merge needs the shard runs: give their run ids, run folders, or a folder holding them.');
  const seen = new Set<string>();
  const runs: ShardRun[] = [];
  for (const source of sources) {
    for (const candidate of await candidatesOf(source, runsDir)) {
      const real = await realpath(candidate.dir);
      if (seen.has(real)) continue;
      seen.add(real);
      const run = await readShardRun(candidate);
      if (run) runs.push(run);
    }
  }
  if (runs.length === 0) throw new AppError('NOT_FOUND', `no shard runs in ${sources.join(', ')}: shard runs are made with --shard I/N.`);
  return runs;
}

const short = (fingerprint: string): string => fingerprint.slice(0, 'sha256:'.length + 12);

function groupBy<K>(runs: readonly ShardRun[], key: (r: ShardRun) => K): Map<K, ShardRun[]> {
  const groups = new Map<K, ShardRun[]>();
  for (const r of runs) {
    const g = groups.get(key(r));
    if (g) g.push(r);
    else groups.set(key(r), [r]);
  }
  return groups;
}

/** The runs that differ from the largest group (the first on a tie), with that group's key. */
function outliers<K>(runs: readonly ShardRun[], key: (r: ShardRun) => K): { usual: K; odd: ShardRun[] } | undefined {
  const groups = [...groupBy(runs, key).entries()];
  if (groups.length < 2) return undefined;
  const [usual] = groups.reduce((best, g) => (g[1].length > best[1].length ? g : best));
  return { usual, odd: runs.filter((r) => key(r) !== usual) };
}

function checkFinished(runs: readonly ShardRun[]): void {
  const unfinished = runs.find((r) => r.report.status !== 'completed');
  if (unfinished) {
    throw new AppError('RUN_FAILED', `${shardName(unfinished)} is ${unfinished.report.status}: rerun that shard, then merge again.`, { key: unfinished.runId });
  }
}

function checkOneFingerprint(runs: readonly ShardRun[]): void {
  const found = outliers(runs, (r) => r.fingerprint);
  if (!found) return;
  const odd = found.odd[0]!;
  throw new AppError('BAD_ARGUMENT',
    `${shardName(odd)} has dataset fingerprint ${short(odd.fingerprint)}…, the other shards ${short(found.usual)}…: ` +
    'it computed other data or other kernel widths. Leave it out, or rerun it on the same data.', { key: odd.runId });
}

function checkOneSplit(runs: readonly ShardRun[]): void {
  const count = outliers(runs, (r) => r.shard.count);
  if (count) {
    const odd = count.odd[0]!;
    throw new AppError('BAD_ARGUMENT',
      `${shardName(odd)} is one of ${odd.shard.count} shards, the others of ${count.usual}: merge the shards of one --shard I/N array.`, { key: odd.runId });
  }
  const by = outliers(runs, (r) => r.shard.by);
  if (by) {
    const odd = by.odd[0]!;
    throw new AppError('BAD_ARGUMENT',
      `${shardName(odd)} split the electrodes by ${odd.shard.by}, the others by ${by.usual}: every shard of a run needs the same --shard-by.`, { key: odd.runId });
  }
}

/**
 * The configuration that must be the same in every shard: all of it but the shard index, the
 * label, and a data file's path (the fingerprint already proves the data are the same, and each
 * machine of a cluster may see the file under another path).
 */
function comparableConfig(config: RunConfig): Record<string, unknown> {
  const { label: _label, shard, data, ...rest } = config;
  return {
    ...rest,
    data: data.kind === 'file' ? { kind: 'file' } : data,
    ...(shard ? { shard: { count: shard.count, by: shard.by } } : {}),
  };
}

function checkOneConfiguration(runs: readonly ShardRun[]): void {
  const first = runs[0]!;
  const want = comparableConfig(first.report.config);
  for (const run of runs.slice(1)) {
    const got = comparableConfig(run.report.config);
    for (const key of new Set([...Object.keys(want), ...Object.keys(got)])) {
      const a = JSON.stringify(want[key]);
      const b = JSON.stringify(got[key]);
      if (a === b) continue;
      throw new AppError('BAD_ARGUMENT',
        `${shardName(run)} ran with ${key} ${b ?? 'unset'}, ${shardName(first)} with ${a ?? 'unset'}: ` +
        'merge shards run with the same configuration (rerun the odd one with the others\' flags).', { key });
    }
  }
}

/** The runs by shard index, each index once; a duplicated or missing index is named. */
function checkEveryShardOnce(runs: readonly ShardRun[]): ShardRun[] {
  const count = runs[0]!.shard.count;
  const byIndex = groupBy(runs, (r) => r.shard.index);
  for (const [index, group] of [...byIndex.entries()].sort((a, b) => a[0] - b[0])) {
    if (group.length > 1) {
      throw new AppError('BAD_ARGUMENT',
        `shard ${index}/${count} is given ${group.length} times (runs ${group.map((r) => r.runId).join(', ')}): leave out all but one.`, { index });
    }
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    const given = [...byIndex.keys()].sort((a, b) => a - b);
    throw new AppError('BAD_ARGUMENT',
      `${missing.length === 1 ? 'shard' : 'shards'} ${missing.map((i) => `${i}/${count}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing ` +
      `(given: ${given.join(', ')} of ${count}): add ${missing.length === 1 ? 'its run' : 'their runs'}, or rerun ${missing.length === 1 ? 'that task' : 'those tasks'}.`,
      { index: missing[0] });
  }
  return [...runs].sort((a, b) => a.shard.index - b.shard.index);
}

function checkEveryElectrodeOnce(runs: readonly ShardRun[]): void {
  const owner = new Map<string, ShardRun>();
  for (const run of runs) {
    for (const electrode of run.shard.electrodes) {
      const other = owner.get(electrode);
      if (other) {
        throw new AppError('BAD_ARGUMENT',
          `electrode ${electrode} is in ${shardName(other)} and in ${shardName(run)}: the shards split the electrodes differently; rerun them with one kde-profiler version.`,
          { electrode });
      }
      owner.set(electrode, run);
    }
  }
}

/** The shards of one run, in shard index order; throws an AppError naming the first shard that does not fit. */
export function checkShards(runs: readonly ShardRun[]): ShardRun[] {
  checkFinished(runs);
  checkOneFingerprint(runs);
  checkOneSplit(runs);
  checkOneConfiguration(runs);
  const ordered = checkEveryShardOnce(runs);
  checkEveryElectrodeOnce(ordered);
  return ordered;
}
