/**
 * `kde-profiler merge`: the shards of a sharded run (`--shard I/N`, one SLURM array task each) made
 * into one run again. The shards are checked to belong together (shardRuns.ts); then one run is
 * recorded in the run store like any other, so `kde-profiler list` and the app show it: the
 * likelihoods summed in shard index order (mergeLikelihood.ts), one report with the critical path
 * and the cluster's CPU time (mergeReport.ts), one trace with a process per shard on a common clock
 * (mergeTrace.ts), and merge.json with each shard's numbers. With an output folder, the report,
 * trace and likelihoods are copied there too.
 */
import { createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { RunConfig } from '../../shared/config';
import { AppError, serializeError } from '../../shared/errors';
import type { TraceRecord } from '../../shared/events';
import type { Report } from '../../shared/report';
import { ndjsonLine } from '../export';
import { commitResultFolder, stageFile } from '../data';
import { LIKELIHOOD_DIR, MERGE_SUMMARY_FILE, REPORT_FILES, RESULT_FOLDER_NAMES, RUN_FILES } from '../engineProtocol';
import {
  headlineOf, newRunId, ownerStamp, type RunStatusFile, RunStore, storeWrite, toolVersion, writeJsonAtomic, writeReportFiles,
} from '../service';
import { mergeShardLikelihoods } from './mergeLikelihood';
import { criticalShard, mergedReport, totalCpuMs } from './mergeReport';
import { mergedEventRecords, readShardTimelines, shardClocks, writeShardsTrace, type ShardTimeline } from './mergeTrace';
import { checkShards, findShardRuns, type ShardRun } from './shardRuns';

export interface MergeOptions {
  /** run ids (in runsDir), run folders, or folders holding run folders; folders as absolute paths */
  sources: readonly string[];
  runsDir: string;
  /** a folder to copy the merged run's report, trace and likelihoods into */
  outDir?: string;
}

export interface ShardSummary {
  index: number;
  runId: string;
  dir: string;
  electrodes: string[];
  host?: string;
  /** how the shard was placed on the merged clock, and where */
  clock: string;
  startedAt: string;
  offsetUs: number;
  wallMs: number | null;
  cpuMs: number | null;
  /** each strategy's warm total median in this shard */
  strategies: { strategy: string; totalMedianMs: number | null }[];
}

export interface MergeSummary {
  runId: string;
  fingerprint: string;
  count: number;
  by: string;
  shards: ShardSummary[];
  /** the slowest shard: the run's wall time on a cluster that starts every shard at once */
  criticalPath: { index: number; runId: string; wallMs: number } | null;
  /** the shards' CPU time summed; null when a shard's is not known */
  totalCpuMs: number | null;
  /** the shards' wall times summed: the machine time the run took */
  totalWallMs: number | null;
  /** from the first shard's first record to the last shard's last, on the merged clock */
  spanMs: number | null;
}

export interface MergeResult {
  runId: string;
  runDir: string;
  report: Report;
  summary: MergeSummary;
  /** what was copied into outDir, by name */
  copied: string[];
  /** where the merged report departs from its schema (none for a sound one) */
  schemaProblems: string[];
}

/** The merged run's configuration: the shards' own, whole again, labelled as a merge. */
function mergedConfig(shards: readonly ShardRun[]): RunConfig {
  const { shard: _shard, label, ...config } = shards[0]!.report.config;
  const what = `merge of ${shards.length} shard${shards.length === 1 ? '' : 's'}`;
  return { ...config, label: (label ? `${what}: ${label}` : what).slice(0, 200) };
}

function datasetLabel(config: RunConfig): string {
  return config.data.kind === 'preset' ? `preset:${config.data.name}` : basename(config.data.path);
}

function summaryOf(runId: string, shards: readonly ShardRun[], timelines: readonly ShardTimeline[]): MergeSummary {
  const slowest = criticalShard(timelines);
  const cpu = totalCpuMs(timelines);
  const walls = timelines.map((t) => t.wallMs);
  const recorded = timelines.filter((t) => t.records.length > 0);
  return {
    runId,
    fingerprint: shards[0]!.fingerprint,
    count: shards[0]!.shard.count,
    by: shards[0]!.shard.by,
    shards: timelines.map((t) => ({
      index: t.run.shard.index, runId: t.run.runId, dir: t.run.dir, electrodes: t.run.shard.electrodes,
      ...(t.host ? { host: t.host } : {}),
      clock: t.clock, startedAt: t.startedAt, offsetUs: t.offsetUs,
      wallMs: t.wallMs ?? null, cpuMs: t.cpuMs ?? null,
      strategies: t.run.report.strategies.map((s) => ({ strategy: s.strategy, totalMedianMs: s.total?.medianMs ?? null })),
    })),
    criticalPath: slowest ? { index: slowest.run.shard.index, runId: slowest.run.runId, wallMs: slowest.wallMs! } : null,
    totalCpuMs: cpu ?? null,
    totalWallMs: walls.every((w) => w !== undefined) ? walls.reduce((n, w) => n + w!, 0) : null,
    spanMs: recorded.length > 0 ? Math.max(...recorded.map((t) => t.endUs)) / 1000 : null,
  };
}

/** events.ndjson of the merged run, a batch per line as a recorded run's, through a temporary file. */
async function writeEvents(path: string, records: readonly TraceRecord[], runsDir: string): Promise<void> {
  const tmp = `${path}.${process.pid}.partial`;
  await storeWrite(runsDir, async () => {
    const out = createWriteStream(tmp);
    try {
      for (let i = 0; i < records.length; i += 1000) {
        if (!out.write(ndjsonLine(records.slice(i, i + 1000)))) await once(out, 'drain');
      }
      out.end();
      await finished(out);
      await rename(tmp, path);
    } catch (e) {
      out.destroy();
      await rm(tmp, { force: true });
      throw e;
    }
  });
}

interface MergedRun {
  report: Report;
  summary: MergeSummary;
  schemaProblems: string[];
}

async function writeMergedRun(
  store: RunStore, runId: string, shards: readonly ShardRun[], timelines: readonly ShardTimeline[], config: RunConfig, createdAt: string,
): Promise<MergedRun> {
  const dir = store.dir(runId);
  const likelihoods = await mergeShardLikelihoods(dir, shards);
  const report = mergedReport({ runId, createdAt, config, shards, timelines, likelihoods });
  const schemaProblems = await writeReportFiles({ json: store.file(runId, RUN_FILES.report), md: store.file(runId, RUN_FILES.reportMd), csv: store.file(runId, RUN_FILES.reportCsv) }, report);
  const summary = summaryOf(runId, shards, timelines);
  if (config.trace && timelines.some((t) => t.records.length > 0)) {
    await writeEvents(store.file(runId, RUN_FILES.events), mergedEventRecords(timelines), store.runsDir);
    await writeShardsTrace(store.file(runId, RUN_FILES.trace), timelines, {
      version: toolVersion(), runId, status: 'completed', merged: { fingerprint: summary.fingerprint, count: summary.count, by: summary.by, shards: shardClocks(timelines) },
    });
  }
  await writeJsonAtomic(join(dir, MERGE_SUMMARY_FILE), summary, store.runsDir);
  return { report, summary, schemaProblems };
}

/** Records the merged run: created running (a merge that dies is listed as interrupted), then completed or failed. */
async function recordMergedRun(store: RunStore, shards: readonly ShardRun[], timelines: readonly ShardTimeline[]): Promise<MergedRun & { runId: string }> {
  const config = mergedConfig(shards);
  const runId = newRunId();
  const createdAt = new Date().toISOString();
  const status: RunStatusFile = {
    id: runId, status: 'running', createdAt, label: config.label, dataset: datasetLabel(config), backend: shards[0]!.report.backend.name,
    strategies: [...config.strategies], headline: [], ...ownerStamp(), ownerStore: store.storeId,
  };
  await store.create(status, config);
  store.markActive(runId, true);
  try {
    const merged = await writeMergedRun(store, runId, shards, timelines, config, createdAt);
    await store.writeStatus({ ...status, status: 'completed', finishedAt: new Date().toISOString(), headline: headlineOf(merged.report) });
    return { runId, ...merged };
  } catch (e) {
    await store.writeStatus({ ...status, status: 'failed', finishedAt: new Date().toISOString(), error: serializeError(e) }).catch(() => undefined);
    throw e;
  } finally {
    store.markActive(runId, false);
  }
}

async function present(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The merged run's outputs into outDir, where scripts expect them (outDir/report.json,
 * outDir/likelihood/…), as one commit: an earlier result there stays whole until this one is.
 */
async function copyOutputs(runId: string, runDir: string, outDir: string): Promise<string[]> {
  const copied: string[] = [];
  await commitResultFolder(outDir, { all: RESULT_FOLDER_NAMES }, { kind: 'merge', runId, status: 'completed' }, async (staging) => {
    for (const name of [...REPORT_FILES, RUN_FILES.trace, MERGE_SUMMARY_FILE]) {
      if (!(await present(join(runDir, name)))) continue;
      await stageFile(runDir, staging, name);
      copied.push(name);
    }
    if (await present(join(runDir, LIKELIHOOD_DIR))) {
      for (const e of await readdir(join(runDir, LIKELIHOOD_DIR), { withFileTypes: true })) {
        if (e.isFile()) await stageFile(runDir, staging, join(LIKELIHOOD_DIR, e.name));
      }
      copied.push(`${LIKELIHOOD_DIR}/`);
    }
    return copied.map((c) => c.replace(/\/$/, ''));
  });
  return copied;
}

/** Checks the shards and writes the merged run; throws an AppError naming the shard that does not fit. */
export async function mergeShardRuns(options: MergeOptions): Promise<MergeResult> {
  if (options.outDir !== undefined && !isAbsolute(options.outDir)) {
    throw new AppError('BAD_ARGUMENT', `--out ${options.outDir}: the output folder must be given as an absolute path.`, { file: options.outDir });
  }
  const store = new RunStore(resolve(options.runsDir));
  await store.init();
  const shards = checkShards(await findShardRuns(options.sources, store.runsDir));
  const timelines = await readShardTimelines(shards);
  const { runId, report, summary, schemaProblems } = await recordMergedRun(store, shards, timelines);
  const runDir = store.dir(runId);
  const copied = options.outDir ? await copyOutputs(runId, runDir, options.outDir) : [];
  return { runId, runDir, report, summary, copied, schemaProblems };
}
