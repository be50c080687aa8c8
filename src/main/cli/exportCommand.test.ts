/**
 * `export RUN_A RUN_B --format perfetto-bundle`: one ZIP of two real runs' traces with the manifest
 * that makes each a machine; every trace member passes trace-check.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from './testing';

// CI names a copy outside ../shared (the checker installs its dependencies next to itself)
const TRACE_CHECK = process.env.KDE_PROFILER_TRACE_CHECK ??
  fileURLToPath(new URL('../../../../shared/tools/trace-check/check.sh', import.meta.url));
let dir: string;
const runIds: string[] = [];

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCliCaptured(dir, args);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-bundle-'));
  for (const strategy of ['reference', 'compensated']) {
    const r = await cli('run', '--data', 'preset:tiny', '--strategy', strategy, '--repeats', '1', '--workers', '1', '--label', `tiny ${strategy}`, '--runs-dir', 'runs');
    if (r.code !== 0) throw new Error(r.stderr);
    runIds.push(/run (\d{8}-\d{6}-[0-9a-f]{6})/.exec(r.stderr)![1]!);
  }
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('kde-profiler export --format perfetto-bundle', () => {
  it('writes one ZIP: the manifest names each run as a machine, and every member passes trace-check', async () => {
    const r = await cli('export', ...runIds, '--format', 'perfetto-bundle', '--out', 'both.zip', '--runs-dir', 'runs');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/both\.zip: open it at ui\.perfetto\.dev \(2 runs/);
    const members = unzipSync(new Uint8Array(await readFile(join(dir, 'both.zip'))));
    const manifest = JSON.parse(strFromU8(members['perfetto_manifest.json']!)) as {
      perfetto_manifest: { version: number; files: { path: string; machine: { name: string } }[]; attributes: Record<string, string | number> };
    };
    const m = manifest.perfetto_manifest;
    expect(m.version).toBe(1);
    expect(m.files.map((f) => f.path)).toEqual(runIds.map((id) => `${id}.json`));
    expect(m.files.map((f) => f.machine.name)).toEqual([`run ${runIds[0]} · tiny reference · wasm`, `run ${runIds[1]} · tiny compensated · wasm`]);
    expect(m.attributes[`kde_profiler.${runIds[1]}.label`]).toBe('tiny compensated');
    expect(m.attributes[`kde_profiler.${runIds[0]}.status`]).toBe('completed');

    const hasChecker = await stat(TRACE_CHECK).then(() => true, () => false);
    for (const id of runIds) {
      const member = members[`${id}.json`]!;
      const trace = JSON.parse(strFromU8(member)) as { traceEvents: { ph: string; name: string }[] };
      expect(trace.traceEvents.some((e) => e.ph === 'X' && e.name === 'run')).toBe(true);
      if (!hasChecker) continue;
      const file = join(dir, `${id}.json`);
      await writeFile(file, member);
      const check = await new Promise<{ code: number; out: string }>((done) => {
        execFile('bash', [TRACE_CHECK, '--strict', file], { timeout: 120_000 }, (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }));
      });
      expect(check.code, check.out).toBe(0);
    }
    if (!hasChecker) console.warn(`trace-check not found at ${TRACE_CHECK}: the bundle's members were not validated by it`);
  }, 180_000);

  it('takes several runs only for the bundle, and checks --align', async () => {
    const two = await cli('export', ...runIds, '--format', 'json', '--runs-dir', 'runs');
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/only --format perfetto-bundle takes several runs/);
    const align = await cli('export', ...runIds, '--format', 'perfetto-bundle', '--align', 'sideways', '--runs-dir', 'runs');
    expect(align.code).toBe(2);
    expect(align.stderr).toMatch(/--align: expected one of start, wall-clock/);
    const twice = await cli('export', runIds[0]!, runIds[0]!, '--format', 'perfetto-bundle', '--runs-dir', 'runs');
    expect(twice.stderr).toMatch(/named twice/);
  });
});
