/**
 * The profiler service as a CLI command holds it: made for one command and closed when the command
 * ends, however it ends, so nothing the service started (its runs folder's index, a queued run) is
 * still writing after the command has returned its exit code.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createProfilerService, type ProfilerService } from '../service';
import { UsageError, type CliIo } from './cliTypes';
import { cannotWriteIn, nearestExisting } from './outputChecks';

/** `--runs-dir`, or `runs` in the working folder. */
export function defaultRunsDir(io: CliIo, flag: string | undefined): string {
  return resolve(io.cwd, flag ?? 'runs');
}

/**
 * The runs folder a command names, checked: a file there is refused; with `writes`, a folder that
 * cannot be made or written (/proc, a read-only disk) is refused too, before anything starts.
 */
export async function checkedRunsDir(io: CliIo, flag: string | undefined, writes: boolean): Promise<string> {
  const dir = defaultRunsDir(io, flag);
  const s = await stat(dir).catch(() => undefined);
  if (s && !s.isDirectory()) throw new UsageError(`--runs-dir ${dir} is a file, not a folder: name a folder (it is made if missing)`);
  if (!writes) return dir;
  // the probe goes in the nearest folder that exists: a recursive mkdir under /proc never returns
  const existing = await nearestExisting(dir);
  const reason = await cannotWriteIn(existing);
  if (reason !== undefined) throw new UsageError(`--runs-dir ${dir} cannot be written (${reason} in ${existing}): name a folder you may write, or leave --runs-dir out for ./runs`);
  return dir;
}

/** `writes`: the command records runs (run, decode, sweep), so the runs folder must be writable */
export async function withService<T>(io: CliIo, runsDirFlag: string | undefined, use: (service: ProfilerService) => Promise<T>, writes = false): Promise<T> {
  const service = createProfilerService({ runsDir: await checkedRunsDir(io, runsDirFlag, writes), commandEngines: true });
  try {
    return await use(service);
  } finally {
    await service.close();
  }
}
