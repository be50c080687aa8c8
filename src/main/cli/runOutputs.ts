/**
 * `run --out DIR`: the run's report, trace, likelihoods and posterior copied out of the run store
 * into DIR, where scripts expect them and where the report's relative paths point
 * (DIR/report.json, DIR/likelihood/<strategy>.npy, DIR/posterior/*.npy, an external engine's
 * posterior under DIR/external/). Every file is written whole beside its target before any
 * replaces an earlier result (see outputFiles.ts).
 */
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RunConfig } from '../../shared/config';
import type { Report } from '../../shared/report';
import { readTraceJson } from '../data';
import {
  EXTERNAL_DIR, LIKELIHOOD_AXES_FILE, LIKELIHOOD_DIR, likelihoodRelPath, PLAIN_TRACE_FILE, POSTERIOR_DIR, POSTERIOR_FILES, REPORT_FILES, RUN_FILES,
} from '../engineProtocol';
import type { FolderOutputs } from './outputChecks';
import { commitAll, stageBytes, stageCopy, type StagedFile } from './outputFiles';

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

type Stage = () => Promise<StagedFile>;

async function traceStages(runDir: string, outDir: string, options: CopyOptions): Promise<{ stages: Stage[]; written: string[] }> {
  const trace = join(runDir, RUN_FILES.trace);
  if (!(await exists(trace))) return { stages: [], written: [] };
  if (options.traceJson) return { stages: [async () => stageBytes(join(outDir, PLAIN_TRACE_FILE), await readTraceJson(trace))], written: [PLAIN_TRACE_FILE] };
  return { stages: [() => stageCopy(trace, join(outDir, RUN_FILES.trace))], written: [RUN_FILES.trace] };
}

async function likelihoodStages(runDir: string, outDir: string): Promise<Stage[]> {
  const likelihood = join(runDir, LIKELIHOOD_DIR);
  if (!(await exists(likelihood))) return [];
  await mkdir(join(outDir, LIKELIHOOD_DIR), { recursive: true });
  const entries = await readdir(likelihood, { withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => () => stageCopy(join(likelihood, e.name), join(outDir, LIKELIHOOD_DIR, e.name)));
}

/**
 * The posterior files the report names: the run's own (posterior/) and each whole-decode engine's
 * (external/<n>-<name>/), those that exist.
 */
async function posteriorStages(runDir: string, outDir: string): Promise<Stage[]> {
  const report = await readFile(join(runDir, RUN_FILES.report), 'utf8').then((t) => JSON.parse(t) as Report).catch(() => undefined);
  const named = [
    ...(report?.posterior ? Object.values(POSTERIOR_FILES) : []),
    ...(report?.strategies ?? []).flatMap((s) => (s.external?.posterior ? [s.external.posterior.file] : [])),
  ];
  const stages: Stage[] = [];
  for (const file of named) {
    // a name from the report stays inside the run folder: never a path that climbs out of it
    if (file.split(/[\\/]/).includes('..') || !(await exists(join(runDir, file)))) continue;
    await mkdir(dirname(join(outDir, file)), { recursive: true });
    stages.push(() => stageCopy(join(runDir, file), join(outDir, file)));
  }
  return stages;
}

/** Copies what the run left; returns the names written into outDir. */
export async function copyRunOutputs(runDir: string, outDir: string, options: CopyOptions): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const stages: Stage[] = [];
  const written: string[] = [];
  for (const name of REPORT_FILES) {
    if (await exists(join(runDir, name))) {
      stages.push(() => stageCopy(join(runDir, name), join(outDir, name)));
      written.push(name);
    }
  }
  const trace = await traceStages(runDir, outDir, options);
  const likelihood = await likelihoodStages(runDir, outDir);
  if (likelihood.length > 0) written.push(`${LIKELIHOOD_DIR}/`);
  const posterior = await posteriorStages(runDir, outDir);
  if (posterior.length > 0) written.push(`${POSTERIOR_DIR}/`);
  await commitAll([...stages, ...trace.stages, ...likelihood, ...posterior]);
  return [...written.slice(0, 3), ...trace.written, ...written.slice(3)];
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
