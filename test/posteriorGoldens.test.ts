/**
 * The whole decode against non_local_detector's own golden regression: `kde-profiler decode
 * --model decoder|detector` on the golden protocols written as ordinary clusterless-npz/1 files
 * (scripts/make-posterior-fixtures.py) reproduces the float64 reference posterior within 5e-6 and
 * NLD's goldens within 1e-5 (posterior-spec §0: float32 lands about 1e-6 from them), whatever the
 * backend, the filter's transition form, the window size or the number of workers.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listBackends } from '../src/main/engine';
import { loadNpz, parseNpy } from '../src/main/data';
import { cliIn, maxDiff, npzArrays } from './support/posteriorArrays';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const REFERENCE = fixture('posterior_reference.npz');
let dir: string;
let reference: Map<string, Float64Array>;

const cli = (args: string[]) => cliIn(dir, args);

async function npy(file: string): Promise<{ shape: number[]; data: Float64Array }> {
  const a = parseNpy(new Uint8Array(await readFile(file)));
  return { shape: a.shape, data: a.data as Float64Array };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-posterior-'));
  const npz = await npzArrays(REFERENCE);
  reference = npz;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const CASES: { model: 'decoder' | 'detector'; backend: string; method: string; extra: string[] }[] = [
  { model: 'decoder', backend: 'wasm', method: 'structured', extra: [] },
  { model: 'decoder', backend: 'wasm', method: 'dense', extra: ['--rows-per-chunk', '7'] },
  { model: 'decoder', backend: 'cpu', method: 'structured', extra: ['--workers', '1'] },
  { model: 'decoder', backend: 'webgpu', method: 'structured', extra: [] },
  { model: 'detector', backend: 'wasm', method: 'structured', extra: ['--workers', '2'] },
  { model: 'detector', backend: 'wasm', method: 'dense', extra: ['--workers', '1', '--rows-per-chunk', '3'] },
  { model: 'detector', backend: 'cpu', method: 'structured', extra: [] },
  { model: 'detector', backend: 'webgpu', method: 'dense', extra: [] },
];

describe('the whole decode reproduces the NLD goldens', () => {
  for (const c of CASES) {
    it(`${c.model}, ${c.method} filter, ${c.backend} ${c.extra.join(' ')}`, async (ctx) => {
      if (c.backend === 'webgpu' && !(await listBackends()).find((b) => b.name === 'webgpu')?.available) {
        ctx.skip('skipped: no WebGPU adapter here (install Mesa lavapipe or a GPU driver)');
      }
      const out = join(dir, `${c.model}-${c.backend}-${c.method}-${c.extra.join('')}`);
      const r = await cli(['decode', '--data', fixture(`nld_${c.model}_protocol.npz`), '--model', c.model, '--posterior-method', c.method,
        '--backend', c.backend, '--strategy', 'reference', '--out', out, '--runs-dir', join(dir, 'runs'), ...c.extra]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`${c.model} posterior (${c.method}`);
      const acausal = await npy(join(out, 'posterior', 'acausal_posterior.npy'));
      const nStateBins = c.model === 'decoder' ? 88 : 170;
      expect(acausal.shape).toEqual([50, nStateBins]);
      expect(maxDiff(acausal.data, reference.get(`${c.model}_acausal_posterior`)!)).toBeLessThan(5e-6);
      expect(maxDiff(acausal.data, reference.get(`golden_${c.model}_acausal_posterior`)!)).toBeLessThan(1e-5);
      const states = await npy(join(out, 'posterior', 'acausal_state_probabilities.npy'));
      expect(maxDiff(states.data, reference.get(`${c.model}_acausal_state_probabilities`)!)).toBeLessThan(5e-6);
      if (c.model === 'detector') expect(maxDiff(states.data, reference.get('golden_detector_acausal_state_probabilities')!)).toBeLessThan(1e-5);
      const causal = await npy(join(out, 'posterior', 'causal_posterior.npy'));
      expect(causal.shape).toEqual([50, nStateBins]);
      const summary = JSON.parse(await readFile(join(out, 'decode.json'), 'utf8'));
      expect(summary.posterior.marginalLogLikelihood).toBeCloseTo(reference.get(`${c.model}_marginal_log_likelihood`)![0]!, 3);
      // the stage measured its own memory beside the estimate (their agreement is a bench figure: at 50 rows it is noise)
      expect(summary.posterior.memory.measuredBytes).toBeGreaterThan(0);
      expect(summary.posterior.memory.estimatedBytes).toBeGreaterThan(0);
      expect((await readdir(join(out, 'posterior'))).some((f) => f.endsWith('.partial'))).toBe(false);
    });
  }

  it('the protocol files load as ordinary clusterless-npz/1 data with the whole grid', async () => {
    const ds = await loadNpz(fixture('nld_detector_protocol.npz'));
    expect(ds.placeGrid?.centers.length).toBe(84);
    expect(ds.isTraining?.reduce((a, b) => a + b, 0)).toBe(3500);
    expect(ds.time.length).toBe(50);
  });
});
