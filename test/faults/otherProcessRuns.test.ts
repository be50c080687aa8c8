/**
 * Fault: a run started by another process on web mode's runs folder (`kde-profiler run --runs-dir
 * SAME`, the CLI in a process of its own). A page of the serve, subscribed to all runs, hears the
 * run as it would one of the serve's own: its status as it starts, its progress, its timeline
 * notices, and its end, last; the views answer for it; and the run's folder holds no temporary
 * file. The serve polls the folder every 50 ms here.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunEvent } from '../../src/shared/events';
import type { ServerMessage } from '../../src/shared/wire';
import { isRunId } from '../../src/shared/runIds';
import { startServer, type RunningServer } from '../../src/main/server';
import { createProfilerService, type ProfilerService } from '../../src/main/service';
import { scratchFolder, waitFor } from './faultKit';

const BIN = fileURLToPath(new URL('../../bin/kde-profiler.mjs', import.meta.url));

let folder: Awaited<ReturnType<typeof scratchFolder>>;
let runsDir: string;
let service: ProfilerService;
let server: RunningServer;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-other-process-runs-');
  runsDir = join(folder.path, 'runs');
  const staticDir = join(folder.path, 'renderer');
  await mkdir(staticDir);
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  service = createProfilerService({ runsDir, servesPages: true, otherProcessRuns: { pollIntervalMs: 50 } });
  server = await startServer({ service, port: 0, host: '127.0.0.1', staticDir, log: () => undefined });
});
afterEach(async () => {
  await server.close();
  await service.close();
  await folder.remove();
});

/** `kde-profiler ARGS…` in a process of its own, as a person would run it beside the serve */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: folder.path, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** a page subscribed to every run: what it heard, and its calls' answers */
async function allRunsPage(): Promise<{ ws: WebSocket; events: RunEvent[]; answers: ServerMessage[] }> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, { origin: `http://127.0.0.1:${server.port}` });
  const events: RunEvent[] = [];
  const answers: ServerMessage[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse((d as Buffer).toString('utf8')) as ServerMessage;
    if (m.kind === 'event') events.push(m.event);
    else answers.push(m);
  });
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  ws.send(JSON.stringify({ kind: 'subscribe', id: 1, runId: '*' }));
  await waitFor('the subscription', () => answers.find((a) => a.kind === 'result' && a.id === 1));
  return { ws, events, answers };
}

describe('fault: a run started by another process on the same runs folder', () => {
  it('reaches a page of the serve: status, progress, timeline, and its end last', async () => {
    const page = await allRunsPage();
    try {
      const run = await cli(['run', '--data', 'preset:small', '--strategy', 'reference,compensated', '--repeats', '3', '--runs-dir', runsDir]);
      expect(run.code, run.stderr).toBe(0);
      const [runId] = (await readdir(runsDir)).filter(isRunId);
      expect(runId).toBeDefined();

      const ofRun = () => page.events.filter((e) => e.runId === runId);
      await waitFor('the run\'s end to reach the page', () => (ofRun().some((e) => e.type === 'status' && e.status === 'completed') ? true : undefined), 10_000);
      const heard = ofRun();
      const statuses = heard.filter((e) => e.type === 'status').map((e) => e.status);
      expect(statuses[0]).toMatch(/^(queued|running)$/);
      expect(statuses).toContain('running');
      expect(statuses.at(-1)).toBe('completed');
      expect(statuses.filter((s) => s === 'completed')).toHaveLength(1);
      const progress = heard.filter((e) => e.type === 'progress');
      expect(progress.length).toBeGreaterThan(0);
      for (const e of progress) expect(e.progress).toMatchObject({ fraction: expect.any(Number), label: expect.any(String) });
      expect(heard.some((e) => e.type === 'timeline')).toBe(true);
      // the end comes last, as it does for a run of the serve's own
      expect(heard.at(-1)).toMatchObject({ type: 'status', status: 'completed' });

      page.ws.send(JSON.stringify({ kind: 'call', id: 2, method: 'getTimeline', params: [runId, { startUs: 0, endUs: 1e12, widthPx: 800 }] }));
      const timeline = await waitFor('the timeline', () => page.answers.find((a) => a.kind === 'result' && a.id === 2));
      expect(timeline).toMatchObject({ ok: true, result: { spans: expect.arrayContaining([expect.anything()]) } });
      expect((await readdir(join(runsDir, runId!))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      page.ws.terminate();
    }
  }, 120_000);

  it('tells a page of the serve\'s own runs once: following other processes adds nothing to them', async () => {
    const page = await allRunsPage();
    try {
      page.ws.send(JSON.stringify({ kind: 'call', id: 2, method: 'startRun', params: [{ data: { kind: 'preset', name: 'tiny', seed: 1 }, backend: 'wasm', strategies: ['reference'], repeats: 1, warmup: 0, trace: true }] }));
      const started = await waitFor('the run to start', () => page.answers.find((a) => a.kind === 'result' && a.id === 2), 30_000);
      expect(started, JSON.stringify(started)).toMatchObject({ ok: true });
      const { runId } = (started as { result: { runId: string } }).result;
      expect((await service.whenFinished(runId)).status).toBe('completed');
      // a few polls more, in which the folder shows the run ended
      await new Promise((r) => setTimeout(r, 300));
      const statuses = page.events.filter((e) => e.runId === runId && e.type === 'status').map((e) => (e as { status: string }).status);
      expect(statuses).toEqual(['queued', 'running', 'completed']);
    } finally {
      page.ws.terminate();
    }
  }, 60_000);
});
