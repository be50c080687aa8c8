/**
 * A second process on a runs folder, for the fault tests (run with `node --import tsx`; prints one
 * JSON object):
 *   lose-write DIR   runs a service on DIR, starts a run, and once it is running makes the run's
 *                    folder and DIR read-only (as their owner, so run it as a user chmod binds);
 *                    then says how the run ended, how it is listed, whether its trace exports and
 *                    what a new run gets
 *   delete DIR ID    asks its own service on DIR to delete run ID
 */
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { createProfilerService } from '../../src/main/service';
import { outcome, type Outcome } from '../../src/main/service/store/runStoreTesting.testdata';
import { presetRun } from './faultKit';

export type { Outcome };

export interface LoseWriteReport {
  uid: number | undefined;
  runId: string;
  final: Outcome<{ status: string; error?: string }>;
  listed: Outcome<{ status: string; error?: string } | null>;
  traceBytes: Outcome<number>;
  nextRun: Outcome<string>;
  logs: string[];
}

async function loseWrite(runsDir: string): Promise<LoseWriteReport> {
  const service = createProfilerService({ runsDir });
  const logs: string[] = [];
  try {
    const { runId } = await service.startRun(presetRun('small', { repeats: 3 }, ['reference', 'compensated']));
    const lockedOut = new Promise<void>((resolve) => {
      service.subscribe(runId, (e) => {
        if (e.type === 'log') logs.push(e.message);
        if (e.type === 'status' && e.status === 'running') {
          void Promise.all([chmod(join(runsDir, runId), 0o555), chmod(runsDir, 0o555)]).then(() => resolve());
        }
      });
    });
    const final = await outcome(async () => {
      const entry = await service.whenFinished(runId);
      return { status: entry.status, error: entry.error?.message };
    });
    await lockedOut;
    const listed = await outcome(async () => {
      const entry = (await service.listRuns()).find((r) => r.id === runId);
      return entry ? { status: entry.status, error: entry.error?.message } : null;
    });
    const traceBytes = await outcome(async () => Buffer.from((await service.exportRun(runId, 'trace')).base64 ?? '', 'base64').length);
    const nextRun = await outcome(async () => (await service.startRun(presetRun('tiny'))).runId);
    return { uid: process.getuid?.(), runId, final, listed, traceBytes, nextRun, logs };
  } finally {
    await service.close();
  }
}

async function main(): Promise<void> {
  const [mode, runsDir, runId] = process.argv.slice(2);
  if (!runsDir || (mode !== 'lose-write' && !runId)) throw new Error('usage: lose-write DIR | delete DIR ID');
  let result: unknown;
  if (mode === 'lose-write') result = await loseWrite(runsDir);
  else if (mode === 'delete') {
    const service = createProfilerService({ runsDir });
    result = await outcome(async () => (await service.deleteRun(runId!), runId));
    await service.close();
  } else throw new Error(`unknown mode ${String(mode)}`);
  process.stdout.write(JSON.stringify(result));
}

await main();
