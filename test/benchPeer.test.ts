/**
 * The bench's NumPy peer (bench/peer/kde_peer.py) agrees with the float64 expected likelihood of a
 * fixture within rtol 1e-4, atol 1e-4. Needs python3 with NumPy; skipped, saying so, without them.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = 'test/fixtures/kde_ref_small_seed42_D2.npz';

function numpyMissing(): string | null {
  const r = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' });
  if (r.error) return `python3 is not on PATH (${r.error.message})`;
  if (r.status !== 0) return `python3 has no NumPy (${r.stderr.trim().split('\n').pop() ?? 'import failed'})`;
  return null;
}

describe('bench NumPy peer', () => {
  it('matches the float64 reference likelihood of a fixture (--check)', (ctx) => {
    const missing = numpyMissing();
    if (missing) ctx.skip(`skipped: ${missing}; the peer needs python3 with NumPy`);
    const r = spawnSync('python3', ['bench/peer/kde_peer.py', '--check', FIXTURE], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout.trim()) as { ok: boolean; arrays: Record<string, { ok: boolean; maxAbsDiff: number }> };
    expect(report.ok).toBe(true);
    expect(report.arrays.log_likelihood_nonlocal?.ok).toBe(true);
  });
});
