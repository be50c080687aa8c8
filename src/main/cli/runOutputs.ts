/**
 * `run --out DIR`: the run's report, trace and likelihoods copied out of the run store into DIR,
 * where scripts expect them (DIR/report.json, DIR/likelihood/<strategy>.npy).
 */
import { copyFile, cp, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';

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
  /** plain trace.json instead of trace.json.gz */
  traceJson: boolean;
}

/** Copies what the run left; returns the names written into outDir. */
export async function copyRunOutputs(runDir: string, outDir: string, options: CopyOptions): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const name of ['report.json', 'report.md', 'report.csv']) {
    if (await exists(join(runDir, name))) {
      await copyFile(join(runDir, name), join(outDir, name));
      written.push(name);
    }
  }
  const trace = join(runDir, 'trace.json.gz');
  if (await exists(trace)) {
    if (options.traceJson) {
      await writeFile(join(outDir, 'trace.json'), gunzipSync(await readFile(trace)));
      written.push('trace.json');
    } else {
      await copyFile(trace, join(outDir, 'trace.json.gz'));
      written.push('trace.json.gz');
    }
  }
  const likelihood = join(runDir, 'likelihood');
  if (await exists(likelihood)) {
    await cp(likelihood, join(outDir, 'likelihood'), { recursive: true });
    written.push('likelihood/');
  }
  return written;
}
