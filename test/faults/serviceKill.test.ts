/**
 * Fault: the process that runs the service (here `kde-profiler run`, the CLI; the desktop app and
 * `serve` hold the same service) is killed with SIGKILL mid-run: nothing of it gets to clean up.
 * Its engine does not outlive it, the run is listed as failed, interrupted, by the next reader of
 * the runs folder, and what it recorded exports as a valid trace.
 */
import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProfilerService, processAlive } from '../../src/main/service';
import { REPO_ROOT, scratchFolder, statusOnDisk, waitFor } from './faultKit';
import { expectInvariants, notesFor } from './invariants';

const BIN = join(REPO_ROOT, 'bin', 'kde-profiler.mjs');
/** events.ndjson holds this much once the engine is well into its work */
const MID_RUN_EVENT_BYTES = 16 * 1024;

let folder: Awaited<ReturnType<typeof scratchFolder>>;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-service-kill-');
});
afterEach(async () => {
  await folder.remove();
});

/** the one run in the folder once its engine is running and has recorded MID_RUN_EVENT_BYTES */
async function runningRun(runsDir: string): Promise<{ runId: string; enginePid: number } | undefined> {
  const [runId] = await readdir(runsDir).catch(() => [] as string[]);
  if (!runId) return undefined;
  const status = await statusOnDisk(runsDir, runId);
  if (status?.status !== 'running' || status.enginePid === undefined) return undefined;
  const events = await stat(join(runsDir, runId, 'events.ndjson')).catch(() => undefined);
  return events && events.size >= MID_RUN_EVENT_BYTES ? { runId, enginePid: status.enginePid } : undefined;
}

describe('fault: SIGKILL of the service process (the CLI) mid-run', () => {
  it('leaves no engine behind, and the run is listed failed, interrupted, with its trace', async (ctx) => {
    const runsDir = join(folder.path, 'runs');
    const cli = spawn(process.execPath, [
      BIN, 'run', '--data', 'preset:medium', '--strategy', 'reference,compensated', '--repeats', '3', '--warmup', '0', '--workers', '1',
      '--runs-dir', runsDir,
    ], { cwd: folder.path, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    cli.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => cli.on('exit', (_code, signal) => resolve(signal)));
    try {
      const { runId, enginePid } = await waitFor('the CLI run to be mid-way', () => runningRun(runsDir), 60_000).catch((e: Error) => {
        throw new Error(`${e.message}; the CLI said: ${stderr}`);
      });
      cli.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      // the engine notices its parent is gone and exits on its own
      await waitFor(`engine ${enginePid} to exit after its service died`, () => (processAlive(enginePid) ? undefined : true), 10_000);

      const service = createProfilerService({ runsDir });
      try {
        await expectInvariants(service, runsDir, {
          expected: { [runId]: { status: 'failed', error: /^interrupted/ } },
          traced: [runId],
          notes: notesFor(ctx),
        });
      } finally {
        await service.close();
      }
    } finally {
      if (cli.exitCode === null && cli.signalCode === null) cli.kill('SIGKILL');
    }
  });
});
