/**
 * non_local_detector as a bench peer (bench/peer/nld_peer.py). Where NLD is not importable the
 * script exits 3 and says what to set, so the bench can skip it with a reason. Where it is (its
 * src/ folder in KDE_PROFILER_NLD_SRC, a Python with JAX in KDE_PROFILER_NLD_PYTHON, default
 * python3), NLD's likelihood on a fixture agrees with the fixture's float64 expected output.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = 'test/fixtures/kde_ref_small_seed42_D2.npz';
const NLD_SRC = process.env.KDE_PROFILER_NLD_SRC;
const NLD_PYTHON = process.env.KDE_PROFILER_NLD_PYTHON ?? 'python3';

function canRun(python: string, code: string): string | null {
  const r = spawnSync(python, ['-c', code], { encoding: 'utf8' });
  if (r.error) return `${python} could not be started (${r.error.message})`;
  if (r.status !== 0) return `${python}: ${r.stderr.trim().split('\n').pop() ?? 'import failed'}`;
  return null;
}

describe('bench NLD peer', () => {
  const empty = mkdtempSync(join(tmpdir(), 'kde-nld-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it('exits 3 and says what to set when NLD is not where it was pointed', (ctx) => {
    const missing = canRun('python3', 'import numpy');
    if (missing) ctx.skip(`skipped: ${missing}; the peer needs python3 with NumPy`);
    const r = spawnSync('python3', ['bench/peer/nld_peer.py', FIXTURE, '--nld-src', empty], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${empty} holds no non_local_detector package`);
  });

  it("NLD's likelihood on a fixture agrees with the float64 expected output", (ctx) => {
    if (!NLD_SRC) ctx.skip('skipped: KDE_PROFILER_NLD_SRC is not set (the src/ folder of a non_local_detector checkout)');
    const missing = canRun(NLD_PYTHON, 'import jax, scipy, xarray, pandas, sklearn, networkx');
    if (missing) ctx.skip(`skipped: ${missing}; set KDE_PROFILER_NLD_PYTHON to a Python with NLD's dependencies`);
    const r = spawnSync(NLD_PYTHON, ['bench/peer/nld_peer.py', FIXTURE, '--nld-src', NLD_SRC!, '--repeats', '1', '--warmup', '0'], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, JAX_PLATFORMS: 'cpu' },
    });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim()) as { peer: string; vsExpected: { maxRelDiff: number; nonFinite: number }; fitMs: number[] };
    expect(out.peer).toBe('nld-clusterless_kde-float32');
    expect(out.fitMs).toHaveLength(1);
    expect(out.vsExpected.nonFinite).toBe(0);
    expect(out.vsExpected.maxRelDiff).toBeLessThan(1e-3);
    // the cold calls report as they end, so a step limit that stops one still leaves how far it got
    expect(r.stderr).toMatch(/nld_peer: cold fit \d+ ms/);
    expect(r.stderr).toMatch(/nld_peer: cold predict \d+ ms/);
  }, 300_000);
});
