/**
 * The profiler service as a CLI command holds it: made for one command and closed when the command
 * ends, however it ends, so nothing the service started (its runs folder's index, a queued run) is
 * still writing after the command has returned its exit code.
 */
import { resolve } from 'node:path';
import { createProfilerService, type ProfilerService } from '../service';
import type { CliIo } from './cliTypes';

/** `--runs-dir`, or `runs` in the working folder. */
export function defaultRunsDir(io: CliIo, flag: string | undefined): string {
  return resolve(io.cwd, flag ?? 'runs');
}

export async function withService<T>(io: CliIo, runsDirFlag: string | undefined, use: (service: ProfilerService) => Promise<T>): Promise<T> {
  const service = createProfilerService({ runsDir: defaultRunsDir(io, runsDirFlag) });
  try {
    return await use(service);
  } finally {
    await service.close();
  }
}
