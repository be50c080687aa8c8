/**
 * Fault: a run whose engine wrote a whole report, then died before the run was marked completed.
 * Before, `list` said interrupted while the report said completed: `export --format md` printed
 * "Status: completed" and `compare` compared it without a word. Now every reader takes the store's
 * one status: the report, its export and compare say the run did not complete, and why.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exampleReport } from '../../src/main/export/exampleReport.testdata';
import { createProfilerService, type ProfilerService } from '../../src/main/service';
import { DEAD_PID, finishedStatus } from '../../src/main/service/store/runStoreTesting.testdata';
import { presetRun, scratchFolder } from './faultKit';

const BIN = fileURLToPath(new URL('../../bin/kde-profiler.mjs', import.meta.url));
const CUT = '20250101-000000-aaaaaa';
const WHOLE = '20250101-000001-bbbbbb';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let runsDir: string;
let service: ProfilerService | undefined;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-one-status-');
  runsDir = join(folder.path, 'runs');
});
afterEach(async () => {
  await service?.close();
  await folder.remove();
});

/** a run folder with a completed report and the given status */
async function runWithReport(id: string, status: 'running' | 'completed'): Promise<void> {
  await mkdir(join(runsDir, id), { recursive: true });
  const s = finishedStatus(id, status === 'running' ? { status, ownerPid: DEAD_PID, ownerStore: 'gone' } : {});
  await writeFile(join(runsDir, id, 'status.json'), JSON.stringify(s));
  await writeFile(join(runsDir, id, 'config.json'), JSON.stringify(presetRun('tiny')));
  await writeFile(join(runsDir, id, 'report.json'), JSON.stringify({ ...exampleReport(), runId: id, status: 'completed' }));
}

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: folder.path, timeout: 60_000 }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('fault: a run interrupted after its report was written', () => {
  it('reads as interrupted in list, the report, its export and compare', async () => {
    await runWithReport(CUT, 'running');
    await runWithReport(WHOLE, 'completed');
    service = createProfilerService({ runsDir });
    const listed = new Map((await service.listRuns()).map((r) => [r.id, r]));
    expect(listed.get(CUT)).toMatchObject({ status: 'failed', error: { message: expect.stringMatching(/^interrupted/) } });
    const detail = await service.getRun(CUT);
    expect(detail.report).toMatchObject({ status: 'failed', error: { message: expect.stringMatching(/^interrupted/) } });
    expect((await service.getRun(WHOLE)).report?.status).toBe('completed');
    const md = Buffer.from((await service.exportRun(CUT, 'md')).base64 ?? '', 'base64').toString('utf8');
    expect(md).toMatch(/- \*\*Status\*\*: failed: interrupted/);
    await service.close();
    service = undefined;

    const exported = await cli(['export', CUT, '--format', 'md', '--runs-dir', runsDir]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/Status\*\*: failed: interrupted/);
    const compared = await cli(['compare', WHOLE, CUT, '--runs-dir', runsDir]);
    expect(compared.stdout).toContain(`note: B (${CUT}) did not complete (failed: interrupted`);
    expect(compared.stdout).not.toContain('note: A');
  });
});
