/**
 * The 2-D whole decode and the multi-bin Local state against non_local_detector itself:
 * `kde-profiler decode` on small open-field files whose NLD posteriors (float64, with the file's own
 * grid) were written beside their data by scripts/make-nld-2d-fixtures.py, and on NLD's 1-D
 * detector protocol with `--local-position-std` 0 and 5 (test/fixtures/nld_local_position_std.npz).
 * Ours is float32 throughout; NLD's float64 posteriors are met within 1e-5 (1e-4 is the bar). The
 * structured transition is within 1e-6 of the dense one, and 1 and 2 workers give the same bits.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listBackends } from '../src/main/engine';
import { parseNpy } from '../src/main/data';
import { parseReport } from '../src/main/export';
import { cliIn, maxDiff, npzArrays } from './support/posteriorArrays';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
let dir: string;
const arrays = new Map<string, Map<string, Float64Array>>();
const cli = (args: string[]) => cliIn(dir, args);

async function decode(name: string, file: string, args: string[]): Promise<{ acausal: Float64Array; states: Float64Array; map: { shape: number[] }; summary: any; bytes: Buffer; runDir: string }> {
  const out = join(dir, name);
  const r = await cli(['decode', '--data', fixture(file), '--strategy', 'reference', '--out', out, '--runs-dir', join(dir, 'runs'), ...args]);
  expect(r.code, r.stderr).toBe(0);
  const runDir = /^run \S+: trace and report in (.+)$/m.exec(`${r.stdout}\n${r.stderr}`)?.[1];
  expect(runDir, r.stdout).toBeDefined();
  const read = async (f: string) => parseNpy(new Uint8Array(await readFile(join(out, 'posterior', f))));
  const acausal = await read('acausal_posterior.npy');
  return {
    acausal: acausal.data as Float64Array,
    states: (await read('acausal_state_probabilities.npy')).data as Float64Array,
    map: { shape: (await read('map_position.npy')).shape },
    summary: JSON.parse(await readFile(join(out, 'decode.json'), 'utf8')),
    bytes: await readFile(join(out, 'posterior', 'acausal_posterior.npy')),
    runDir: runDir!,
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-posterior2d-'));
  for (const f of ['nld_2d_decoder.npz', 'nld_2d_detector.npz', 'nld_local_position_std.npz']) arrays.set(f, await npzArrays(fixture(f)));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the 2-D whole decode is non_local_detector's", () => {
  it('decoder: within 1e-5 of NLD in float64, x and y MAP columns, 1 and 2 workers the same bits, dense within 1e-6', async () => {
    const nld = arrays.get('nld_2d_decoder.npz')!;
    const one = await decode('dec-1', 'nld_2d_decoder.npz', ['--model', 'decoder', '--backend', 'wasm', '--workers', '1']);
    expect(maxDiff(one.acausal, nld.get('nld_acausal_posterior')!)).toBeLessThan(1e-5);
    expect(one.summary.posterior.marginalLogLikelihood).toBeCloseTo(nld.get('nld_marginal_log_likelihood')![0]!, 2);
    expect(one.map.shape).toEqual([300, 2]);
    const two = await decode('dec-2', 'nld_2d_decoder.npz', ['--model', 'decoder', '--backend', 'wasm', '--workers', '2']);
    expect(two.bytes.equals(one.bytes)).toBe(true);
    const dense = await decode('dec-dense', 'nld_2d_decoder.npz', ['--model', 'decoder', '--backend', 'wasm', '--posterior-method', 'dense']);
    expect(maxDiff(dense.acausal, one.acausal)).toBeLessThan(1e-6);
  });

  it('detector: posterior and state probabilities within 1e-5 of NLD, 1 and 2 workers the same bits', async () => {
    const nld = arrays.get('nld_2d_detector.npz')!;
    const two = await decode('det-2', 'nld_2d_detector.npz', ['--model', 'detector', '--backend', 'wasm', '--workers', '2']);
    expect(maxDiff(two.acausal, nld.get('nld_acausal_posterior')!)).toBeLessThan(1e-5);
    expect(maxDiff(two.states, nld.get('nld_acausal_state_probabilities')!)).toBeLessThan(1e-5);
    const one = await decode('det-1', 'nld_2d_detector.npz', ['--model', 'detector', '--backend', 'wasm', '--workers', '1']);
    expect(one.bytes.equals(two.bytes)).toBe(true);
  });

  it('detector on webgpu, dense: within 1e-5 of NLD', async (ctx) => {
    if (!(await listBackends()).find((b) => b.name === 'webgpu')?.available) ctx.skip('skipped: no WebGPU adapter here (install Mesa lavapipe or a GPU driver)');
    const nld = arrays.get('nld_2d_detector.npz')!;
    const gpu = await decode('det-gpu', 'nld_2d_detector.npz', ['--model', 'detector', '--backend', 'webgpu', '--posterior-method', 'dense']);
    expect(maxDiff(gpu.acausal, nld.get('nld_acausal_posterior')!)).toBeLessThan(1e-5);
  });
});

describe("the multi-bin Local state is non_local_detector's local_position_std", () => {
  const cases = [
    { key: 'd1', file: 'nld_detector_protocol.npz', std: '0' },
    { key: 'd1', file: 'nld_detector_protocol.npz', std: '5' },
    { key: 'd2', file: 'nld_2d_detector.npz', std: '0' },
    { key: 'd2', file: 'nld_2d_detector.npz', std: '5' },
  ];
  for (const c of cases) {
    it(`${c.key === 'd1' ? '1-D' : '2-D'} detector, --local-position-std ${c.std}: within 1e-5 of NLD, Local over every bin`, async () => {
      const nld = arrays.get('nld_local_position_std.npz')!;
      const ours = await decode(`lps-${c.key}-${c.std}`, c.file, ['--model', 'detector', '--backend', 'wasm', '--local-position-std', c.std]);
      const reference = nld.get(`${c.key}_${c.std}_acausal_posterior`)!;
      expect(ours.acausal.length).toBe(reference.length);
      expect(maxDiff(ours.acausal, reference)).toBeLessThan(1e-5);
      expect(maxDiff(ours.states, nld.get(`${c.key}_${c.std}_acausal_state_probabilities`)!)).toBeLessThan(1e-5);
      expect(ours.summary.posterior.parameters.localPositionStd).toBe(Number(c.std));
      // the run's report reads back against its own schema, the std among its parameters
      const report = parseReport(await readFile(join(ours.runDir, 'report.json'), 'utf8'), 'report.json');
      expect(report.posterior?.parameters?.localPositionStd).toBe(Number(c.std));
      // the Local state spans the grid: as many state bins as each non-local state, plus No-Spike's one
      const stateInd = nld.get(`${c.key}_${c.std}_state_ind`)!;
      expect(ours.summary.posterior.nStateBins).toBe(stateInd.length);
    });
  }
});
