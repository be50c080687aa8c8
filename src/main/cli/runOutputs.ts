/**
 * `run --out DIR`: the run's report, trace, likelihoods and posterior copied out of the run store
 * into DIR, where scripts expect them and where the report's relative paths point
 * (DIR/report.json, DIR/likelihood/<strategy>.npy, DIR/posterior/*.npy, an external engine's
 * posterior under DIR/external/), committed as one result with its manifest last.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunConfig } from '../../shared/config';
import type { Report } from '../../shared/report';
import { commitResultFolder, readTraceJson, stageFile } from '../data';
import {
  EXTERNAL_DIR, LIKELIHOOD_AXES_FILE, LIKELIHOOD_DIR, likelihoodRelPath, PLAIN_TRACE_FILE, POSTERIOR_DIR, POSTERIOR_FILES, REPORT_FILES,
  RESULT_FOLDER_NAMES, RUN_FILES,
} from '../engineProtocol';
import type { FolderOutputs } from './outputChecks';

/** whether a file or folder is there (a missing one is not an error here) */
export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

export interface CopyOptions {
  /** the trace as plain JSON (PLAIN_TRACE_FILE) instead of gzip (RUN_FILES.trace) */
  traceJson: boolean;
}

async function stageTrace(runDir: string, staging: string, options: CopyOptions): Promise<string[]> {
  if (!(await exists(join(runDir, RUN_FILES.trace)))) return [];
  if (!options.traceJson) {
    await stageFile(runDir, staging, RUN_FILES.trace);
    return [RUN_FILES.trace];
  }
  await writeFile(join(staging, PLAIN_TRACE_FILE), await readTraceJson(join(runDir, RUN_FILES.trace)));
  return [PLAIN_TRACE_FILE];
}

async function stageLikelihoods(runDir: string, staging: string): Promise<string[]> {
  const likelihood = join(runDir, LIKELIHOOD_DIR);
  if (!(await exists(likelihood))) return [];
  const files = (await readdir(likelihood, { withFileTypes: true })).filter((e) => e.isFile());
  for (const e of files) await stageFile(runDir, staging, join(LIKELIHOOD_DIR, e.name));
  return files.length > 0 ? [LIKELIHOOD_DIR] : [];
}

/**
 * The posterior files the report names: the run's own (posterior/) and each whole-decode engine's
 * (external/<n>-<name>/), those that exist.
 */
async function stagePosteriors(runDir: string, staging: string): Promise<string[]> {
  const report = await readFile(join(runDir, RUN_FILES.report), 'utf8').then((t) => JSON.parse(t) as Report).catch(() => undefined);
  const named = [
    ...(report?.posterior ? Object.values(POSTERIOR_FILES) : []),
    ...(report?.strategies ?? []).flatMap((s) => (s.external?.posterior ? [s.external.posterior.file] : [])),
  ];
  const top: string[] = [];
  for (const file of named) {
    // a name from the report stays inside the run folder: never a path that climbs out of it
    if (file.split(/[\\/]/).includes('..') || !(await exists(join(runDir, file)))) continue;
    await stageFile(runDir, staging, file);
    top.push(file.split(/[\\/]/)[0]!);
  }
  return top;
}

/** The run's final status and id, as the result folder's manifest records them. */
export interface RunResultOf {
  runId: string;
  status: string;
}

/**
 * Copies what the run left into DIR as one commit (see data/files/resultFolder.ts): an earlier
 * result there stays whole until this one is, and none of its files stays beside it. Returns
 * the names written into DIR.
 */
export async function copyRunOutputs(runDir: string, outDir: string, options: CopyOptions, run: RunResultOf): Promise<string[]> {
  const written: string[] = [];
  await commitResultFolder(outDir, { all: RESULT_FOLDER_NAMES }, { kind: 'run', ...run }, async (staging) => {
    for (const name of REPORT_FILES) {
      if (!(await exists(join(runDir, name)))) continue;
      await stageFile(runDir, staging, name);
      written.push(name);
    }
    written.push(...(await stageTrace(runDir, staging, options)));
    const likelihood = await stageLikelihoods(runDir, staging);
    const posterior = await stagePosteriors(runDir, staging);
    written.push(...likelihood.map((d) => `${d}/`), ...[...new Set(posterior)].map((d) => `${d}/`));
    return [...written.map((w) => w.replace(/\/$/, ''))];
  });
  return written;
}

/** What copyRunOutputs may write for a run of `config`, so that `--out` is checked before the run. */
export function runOutputsOf(config: RunConfig, options: CopyOptions): FolderOutputs {
  const likelihoods = config.saveLikelihood ? [...config.strategies, ...(config.local ? ['local'] : [])].map(likelihoodRelPath) : [];
  if (likelihoods.length > 0) likelihoods.push(LIKELIHOOD_AXES_FILE);
  const posterior = config.posterior ? Object.values(POSTERIOR_FILES) : [];
  return {
    files: [...REPORT_FILES, options.traceJson ? PLAIN_TRACE_FILE : RUN_FILES.trace, ...likelihoods, ...posterior],
    folders: [LIKELIHOOD_DIR, ...(config.posterior ? [POSTERIOR_DIR] : []), ...(config.engines ? [EXTERNAL_DIR] : [])],
  };
}
