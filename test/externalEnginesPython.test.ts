/**
 * The engines the project ships (resources/engines/): the NumPy peer and non_local_detector as
 * external engines of a run, through the protocol module they share. Where NLD is not importable
 * its row says why and the run goes on; where it is (its src/ folder in KDE_PROFILER_NLD_SRC, a
 * Python with JAX in KDE_PROFILER_NLD_PYTHON), its likelihood agrees with the fixture's float64
 * output, its XLA compilations are counted and JAX's own trace of a call joins the timeline. On a 2-D
 * open field (test/fixtures/nld_2d_decoder.npz, scripts/make-nld-2d-fixtures.py) its whole decode on the
 * file's grid gives the posterior NLD itself wrote into the fixture.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceRecord } from '../src/shared/events';
import type { Report } from '../src/shared/report';
import { runCliCaptured } from '../src/main/cli/testing';
import { parseNpy } from '../src/main/data';

const ENGINES = fileURLToPath(new URL('../resources/engines/', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/kde_ref_tiny_seed42_D2.npz', import.meta.url));
const NLD_2D_DECODER = fileURLToPath(new URL('./fixtures/nld_2d_decoder.npz', import.meta.url));
const NLD_SRC = process.env.KDE_PROFILER_NLD_SRC;
const NLD_PYTHON = process.env.KDE_PROFILER_NLD_PYTHON ?? 'python3';

/** one array of an .npz (stored or deflated members), as float64 */
async function npzArray(file: string, key: string): Promise<{ shape: number[]; data: Float64Array }> {
  const { unzipSync } = await import('fflate');
  const member = unzipSync(new Uint8Array(await readFile(file)), { filter: (f) => f.name === `${key}.npy` })[`${key}.npy`];
  if (!member) throw new Error(`${file} has no '${key}'`);
  const a = parseNpy(member);
  return { shape: a.shape, data: a.data as Float64Array };
}

function cannotRun(python: string, code: string): string | undefined {
  const r = spawnSync(python, ['-c', code], { encoding: 'utf8' });
  if (r.error) return `${python} could not be started (${r.error.message})`;
  return r.status === 0 ? undefined : `${python}: ${r.stderr.trim().split('\n').pop() ?? 'import failed'}`;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-engines-py-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `kde-profiler run` on the tiny fixture with these flags; its report and trace records */
async function run(
  name: string, flags: string[], env: Record<string, string> = {}, data = FIXTURE,
): Promise<{ report: Report; records: TraceRecord[]; stderr: string; runDir: string }> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const runsDir = join(dir, name);
    const r = await runCliCaptured(dir, ['run', '--data', data, '--strategy', 'reference', '--repeats', '2', '--warmup', '0', '--no-kernel-profile', ...flags, '--runs-dir', runsDir]);
    const [id] = (await readdir(runsDir)).filter((n) => /^\d{8}-/.test(n));
    const report = JSON.parse(await readFile(join(runsDir, id!, 'report.json'), 'utf8')) as Report;
    const records = (await readFile(join(runsDir, id!, 'events.ndjson'), 'utf8')).trim().split('\n').flatMap((l) => JSON.parse(l) as TraceRecord[]);
    return { report, records, stderr: r.stderr, runDir: join(runsDir, id!) };
  } finally {
    process.env = saved;
  }
}

describe('the shipped engines', () => {
  it('numpy: the float32 peer decodes beside the strategies and agrees with the float64 output', async (ctx) => {
    const missing = cannotRun('python3', 'import numpy');
    if (missing) ctx.skip(`skipped: ${missing}; the numpy engine needs python3 with NumPy`);
    const { report, records } = await run('numpy', ['--engine', 'numpy', '--python', 'python3']);
    const row = report.strategies.find((s) => s.strategy === 'numpy')!;
    expect(row.status, row.error?.message).toBe('ok');
    expect(row.total?.n).toBe(2);
    expect(row.agreementWithExpected?.maxAbsDiff).toBeLessThan(1e-3);
    expect(row.external).toMatchObject({ engine: 'numpy', device: 'cpu', dtype: 'float32', exitCode: 0 });
    expect(typeof row.external?.info.blas).toBe('string');
    expect(row.stages.map((s) => s.name).sort()).toEqual(['fit', 'predict']);
    expect(records.some((r) => r.proc === 'external' && r.ph === 'X' && r.name === 'load-data')).toBe(true);
  });

  it('a shipped engine run by hand says it is started by kde-profiler run', (ctx) => {
    const missing = cannotRun('python3', 'import numpy');
    if (missing) ctx.skip(`skipped: ${missing}`);
    const r = spawnSync('python3', [join(ENGINES, 'numpy_engine.py')], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/external engine of KDE Profiler: run it with `kde-profiler run --data FILE --engine/);
  });

  it('nld: where NLD is not importable, its row says what to set and the run goes on', async (ctx) => {
    const missing = cannotRun('python3', 'import numpy');
    if (missing) ctx.skip(`skipped: ${missing}`);
    const empty = await mkdtemp(join(dir, 'no-nld-'));
    const { report } = await run('nld-missing', ['--engine', 'nld:clusterless_kde', '--python', 'python3'], { KDE_PROFILER_NLD_SRC: empty });
    expect(report.status).toBe('completed');
    const row = report.strategies.find((s) => s.strategy === 'nld:clusterless_kde')!;
    expect(row).toMatchObject({ status: 'failed', external: { exitCode: 3 } });
    expect(row.external?.unavailable).toMatch(/holds no non_local_detector package|JAX is not importable/);
    expect(report.strategies.find((s) => s.strategy === 'reference')?.status).toBe('ok');
  });

  it("nld: NLD's likelihood agrees with the float64 output; its compilations and JAX's trace are recorded", async (ctx) => {
    if (!NLD_SRC) ctx.skip('skipped: KDE_PROFILER_NLD_SRC is not set (the src/ folder of a non_local_detector checkout)');
    const missing = cannotRun(NLD_PYTHON, 'import jax, scipy, xarray, pandas, sklearn, networkx');
    if (missing) ctx.skip(`skipped: ${missing}; set KDE_PROFILER_NLD_PYTHON to a Python with NLD's dependencies`);
    const { report, records } = await run('nld', ['--engine', 'nld:clusterless_kde', '--python', NLD_PYTHON, '--engine-trace'], { JAX_PLATFORMS: 'cpu' });
    const row = report.strategies.find((s) => s.strategy === 'nld:clusterless_kde')!;
    expect(row.status, row.error?.message).toBe('ok');
    expect(row.agreementWithExpected?.maxAbsDiff).toBeLessThan(1e-3);
    expect(row.external?.counters?.['xla compilations']).toBeGreaterThan(0);
    expect(row.total!.firstMs).toBeGreaterThan(row.total!.medianMs);
    expect(records.filter((r) => r.proc === 'external' && r.ph === 'X' && r.cat === 'framework').length).toBeGreaterThan(10);
  }, 600_000);

  for (const model of ['decoder', 'detector'] as const) {
    it(`nld:${model}: NLD's whole decode has the run's own posterior, to float32`, async (ctx) => {
      if (!NLD_SRC) ctx.skip('skipped: KDE_PROFILER_NLD_SRC is not set (the src/ folder of a non_local_detector checkout)');
      const missing = cannotRun(NLD_PYTHON, 'import jax, scipy, xarray, pandas, sklearn, networkx');
      if (missing) ctx.skip(`skipped: ${missing}; set KDE_PROFILER_NLD_PYTHON to a Python with NLD's dependencies`);
      // the decoder's run also takes JAX's trace of one more warm call
      const trace = model === 'decoder' ? ['--engine-trace'] : [];
      const flags = ['--model', model, '--posterior-method', 'structured', '--engine', `nld:${model}`, '--python', NLD_PYTHON, ...trace];
      const { report, records } = await run(`nld-${model}`, flags, { JAX_PLATFORMS: 'cpu' }, 'preset:tiny');
      const row = report.strategies.find((s) => s.strategy === `nld:${model}`)!;
      expect(row.status, row.error?.message).toBe('ok');
      expect(row.external?.posterior?.model).toBe(model);
      expect(row.agreementWithReference).toMatchObject({ against: `the run's ${model} posterior (structured)`, allclose: true, argmaxAgreement: 1 });
      expect(row.agreementWithReference!.maxAbsDiff).toBeLessThan(1e-5);
      const framework = records.filter((r) => r.proc === 'external' && r.ph === 'X' && r.cat === 'framework');
      if (trace.length > 0) expect(framework.length).toBeGreaterThan(10);
    }, 600_000);
  }
  it("nld:decoder:x64 on a 2-D open field: NLD's decode on the file's whole grid is the posterior NLD wrote into the fixture", async (ctx) => {
    if (!NLD_SRC) ctx.skip('skipped: KDE_PROFILER_NLD_SRC is not set (the src/ folder of a non_local_detector checkout)');
    const missing = cannotRun(NLD_PYTHON, 'import jax, scipy, xarray, pandas, sklearn, networkx');
    if (missing) ctx.skip(`skipped: ${missing}; set KDE_PROFILER_NLD_PYTHON to a Python with NLD's dependencies`);
    const flags = ['--model', 'decoder', '--posterior-method', 'structured', '--engine', 'nld:decoder:x64', '--python', NLD_PYTHON];
    const { report, runDir } = await run('nld-2d-decoder', flags, { JAX_PLATFORMS: 'cpu' }, NLD_2D_DECODER);
    const row = report.strategies.find((s) => s.strategy === 'nld:decoder:x64')!;
    expect(row.status, row.error?.message).toBe('ok');
    const file = row.external?.posterior?.file;
    expect(file, 'the engine handed back no posterior').toBeTypeOf('string');
    const engine = parseNpy(new Uint8Array(await readFile(join(runDir, file!))));
    const expected = await npzArray(NLD_2D_DECODER, 'nld_acausal_posterior');
    expect(engine.shape).toEqual(expected.shape);
    const got = engine.data as Float64Array;
    let worst = 0;
    let offTrack = 0;
    for (let i = 0; i < got.length; i++) {
      const [a, b] = [got[i]!, expected.data[i]!];
      if (Number.isNaN(b)) {
        offTrack++;
        expect(Number.isNaN(a), `column ${i % expected.shape[1]!} is off the track in NLD's posterior but not in the engine's`).toBe(true);
        continue;
      }
      worst = Math.max(worst, Number.isNaN(a) ? Infinity : Math.abs(a - b));
    }
    // the padding bins of NLD's 2-D grid are off the track: the comparison covers the rest
    expect(offTrack).toBeGreaterThan(0);
    expect(offTrack).toBeLessThan(got.length);
    expect(worst).toBeLessThan(1e-6);
  }, 600_000);
});
