/**
 * What must hold after every fault: the service answers; the runs folder lists every run with an
 * honest status (nothing 'running' that is not, failed where it failed, no stack traces in what a
 * page reads); and every trace recorded so far exports and passes trace-check (the project's
 * checker of Chrome trace files, `../shared/tools/trace-check/check.sh` from the project root).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { expect } from 'vitest';
import type { ProfilerApi, RunIndexEntry } from '../../src/shared/api';
import type { RunStatus } from '../../src/shared/events';
import { createProfilerService } from '../../src/main/service';

// CI names a copy outside ../shared (the checker installs its dependencies next to itself)
export const TRACE_CHECK = process.env.KDE_PROFILER_TRACE_CHECK ??
  fileURLToPath(new URL('../../../shared/tools/trace-check/check.sh', import.meta.url));
/** the checker loads the trace in two real consumers too; a first call may install them */
const TRACE_CHECK_TIMEOUT_MS = 90_000;
/** a service that takes longer than this to list runs or describe itself is not answering */
const ANSWER_WITHIN_MS = 10_000;

/** what a run must be listed as; a RegExp is matched against its error's message */
export type Expected = RunStatus | { status: RunStatus; error?: RegExp };

/** where a check could not run, said where the test's output shows it */
export interface Notes {
  note(message: string): void;
}

export interface InvariantOptions {
  /** every run the folder must list, with its status; any other run listed must be final */
  expected: Record<string, Expected>;
  /** runs that must have recorded a trace (every run with an events.ndjson is exported and checked) */
  traced?: readonly string[];
  /**
   * What a fresh reader of the folder must list, where it differs from `expected`: a final status
   * that met a full disk lives only in the memory of the service that ran it
   */
  folderExpected?: Record<string, Expected>;
  notes?: Notes;
}

function within<T>(what: string, p: Promise<T>, ms = ANSWER_WITHIN_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** (a) the service answers: it lists its runs and describes itself */
export async function expectServiceAnswers(service: ProfilerApi): Promise<RunIndexEntry[]> {
  const info = await within('getInfo', service.getInfo());
  expect(info.version).toEqual(expect.any(String));
  const runs = await within('listRuns', service.listRuns());
  expect(Array.isArray(runs)).toBe(true);
  return runs;
}

/** (b) every expected run is listed as expected, no other run is left unfinished, no error carries a stack */
export function expectHonestListing(listed: readonly RunIndexEntry[], expected: Record<string, Expected>, who: string): void {
  const byId = new Map(listed.map((r) => [r.id, r]));
  for (const [id, want] of Object.entries(expected)) {
    const entry = byId.get(id);
    expect(entry, `${who}: run ${id} is not listed`).toBeDefined();
    const status = typeof want === 'string' ? want : want.status;
    expect(entry!.status, `${who}: run ${id}${entry!.error ? ` (${entry!.error.message})` : ''}`).toBe(status);
    if (typeof want !== 'string' && want.error) expect(entry!.error?.message, `${who}: run ${id}'s error`).toMatch(want.error);
    if (status === 'failed') expect(entry!.error?.message, `${who}: failed run ${id} says why`).toBeTruthy();
  }
  for (const entry of listed) {
    if (!(entry.id in expected)) expect(['completed', 'failed', 'cancelled'], `${who}: run ${entry.id} is ${entry.status}`).toContain(entry.status);
    expect(JSON.stringify(entry.error ?? {}), `${who}: run ${entry.id}'s error`).not.toMatch(/\\n\s+at |"stack"/);
  }
}

export type TraceVerdict = { ok: true } | { ok: false; output: string } | { skipped: string };

/** Runs trace-check on one file; skipped, with the reason, where the checker is not there. */
export function traceCheck(file: string): Promise<TraceVerdict> {
  if (!existsSync(TRACE_CHECK)) return Promise.resolve({ skipped: `trace-check is not at ${TRACE_CHECK}` });
  return new Promise((resolve) => {
    execFile('bash', [TRACE_CHECK, '-q', file], { timeout: TRACE_CHECK_TIMEOUT_MS, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve(err ? { ok: false, output: `${stdout}\n${stderr}`.trim().slice(-4000) } : { ok: true });
    });
  });
}

/** (c) each run's trace exports through the service, is a Chrome trace, and passes trace-check */
export async function expectTracesExport(service: ProfilerApi, runIds: readonly string[], notes?: Notes): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'kde-fault-traces-'));
  try {
    for (const id of runIds) {
      const exported = await within(`exportRun ${id}`, service.exportRun(id, 'trace'), 60_000);
      const bytes = Buffer.from(exported.base64 ?? '', 'base64');
      const trace = JSON.parse(gunzipSync(bytes).toString('utf8')) as { traceEvents?: unknown[] };
      expect(trace.traceEvents?.length, `run ${id}'s exported trace has events`).toBeGreaterThan(0);
      const file = join(scratch, exported.fileName);
      await writeFile(file, bytes);
      const verdict = await traceCheck(file);
      if ('skipped' in verdict) {
        notes?.note(`trace-check skipped for run ${id}: ${verdict.skipped}`);
        continue;
      }
      expect(verdict, `trace-check on run ${id}'s exported trace`).toEqual({ ok: true });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * All three, after a fault: through the service that met it, and through a fresh service reading
 * the same runs folder (what another process, or the next start, sees).
 */
export async function expectInvariants(service: ProfilerApi, runsDir: string, options: InvariantOptions): Promise<void> {
  const listed = await expectServiceAnswers(service);
  expectHonestListing(listed, options.expected, 'the service');
  const reader = createProfilerService({ runsDir });
  try {
    expectHonestListing(await expectServiceAnswers(reader), options.folderExpected ?? options.expected, 'a fresh reader of the runs folder');
  } finally {
    await reader.close();
  }
  const traced = listed.map((r) => r.id).filter((id) => existsSync(join(runsDir, id, 'events.ndjson')));
  expect(traced).toEqual(expect.arrayContaining([...(options.traced ?? [])]));
  await expectTracesExport(service, traced, options.notes);
}

/** Notes that show in the test's output (and in vitest's annotations where the context has them). */
export function notesFor(ctx: { annotate?: (message: string) => unknown }): Notes {
  return {
    note(message) {
      console.warn(message);
      void ctx.annotate?.(message);
    },
  };
}
