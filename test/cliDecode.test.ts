/**
 * `kde-profiler decode`: windowed decoding streamed to a .npy must equal the float64 reference on
 * a fixture, whatever the window size, and say what it measured. It is a recorded run: listed in
 * the run store, with its trace.
 */
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RUN_CONFIG } from '../src/shared/config';
import { formatBytes } from '../src/shared/format';
import type { Report } from '../src/shared/report';
import { loadNpz, parseNpy } from '../src/main/data';
import type { DecodeSummary } from '../src/main/engineProtocol';
import { estimateRunMemory } from '../src/main/service/engineInfo';
import { runCli, type CliResult } from './cliRunner';

const FIXTURE = fileURLToPath(new URL('./fixtures/kde_ref_small_seed7_D4_fs40.npz', import.meta.url));
let dir: string;

const cli = (args: string[]): Promise<CliResult> => runCli(dir, args);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-decode-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('kde-profiler decode', () => {
  for (const [strategy, rows] of [['compensated', '7'], ['streaming', '1000']] as const) {
    it(`${strategy}, ${rows} rows per window: the streamed likelihood matches the reference`, async () => {
      const out = join(dir, `${strategy}-${rows}`);
      const r = await cli(['decode', '--data', FIXTURE, '--strategy', strategy, '--rows-per-chunk', rows, '--out', out]);
      expect(r.stderr).not.toMatch(/error/i);
      expect(r.code).toBe(0);
      const npy = parseNpy(new Uint8Array(await readFile(join(out, 'likelihood', `${strategy}.npy`))));
      const expected = (await loadNpz(FIXTURE)).expected!.logLikelihoodNonlocal!;
      expect(npy.dtype.descr).toBe('<f4');
      expect(npy.shape[0]! * npy.shape[1]!).toBe(expected.length);
      const values = npy.data as Float64Array;
      let bad = 0;
      for (let i = 0; i < expected.length; i++) if (!(Math.abs(values[i]! - expected[i]!) <= 1e-4 + 1e-4 * Math.abs(expected[i]!))) bad++;
      expect(bad).toBe(0);
      const summary = JSON.parse(await readFile(join(out, 'decode.json'), 'utf8'));
      expect(summary.shape).toEqual(npy.shape);
      expect(summary.peakRssBytes).toBeGreaterThan(0);
      expect(summary.windows).toBeGreaterThanOrEqual(1);
      expect(summary.scale).toMatch(/preset/);
      // the encoding and decoding spikes are counted apart, never summed (a window's spikes are in both sets)
      expect(r.stdout).toContain(`${summary.dataset.nEncodingSpikes} encoding and ${summary.dataset.nDecodingSpikes} decoding spikes`);
      expect((await readdir(join(out, 'likelihood'))).some((f) => f.endsWith('.partial'))).toBe(false);
    });
  }

  it('is a run in the run store, labelled a decode, with its trace', async () => {
    const runsDir = join(dir, 'store');
    const r = await cli(['decode', '--data', FIXTURE, '--strategy', 'auto', '--rows-per-chunk', '50', '--out', join(dir, 'listed'), '--runs-dir', runsDir]);
    expect(r.code).toBe(0);
    const list = await cli(['list', '--runs-dir', runsDir, '--json']);
    const runs = JSON.parse(list.stdout) as { id: string; status: string; label?: string; strategies: string[] }[];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'completed', strategies: ['auto'], label: expect.stringMatching(/^decode auto, 50 rows per window/) });
    expect(r.stderr).toContain(`run ${runs[0]!.id}`);
    const runDir = join(runsDir, runs[0]!.id);
    const trace = JSON.parse(gunzipSync(await readFile(join(runDir, 'trace.json.gz'))).toString('utf8')) as { traceEvents: { name: string; args?: Record<string, unknown> }[] };
    const names = trace.traceEvents.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['run', 'load-data', 'encode', 'decode']));
    // the fixture's windows of 50 rows are decoded together: one span names them all
    expect(trace.traceEvents.filter((e) => e.name === 'windows' && e.args?.firstWindow === 0)).toHaveLength(1);
    expect((await stat(join(runDir, 'likelihood', 'auto.npy'))).size).toBeGreaterThan(0);
    expect((await stat(join(runDir, 'decode.json'))).size).toBeGreaterThan(0);
    const text = await cli(['list', '--runs-dir', runsDir]);
    expect(text.stdout).toContain(runs[0]!.id);
  });

  it('refuses a run without --out and more than one strategy, exit 2', async () => {
    expect((await cli(['decode', '--data', FIXTURE])).code).toBe(2);
    const r = await cli(['decode', '--data', FIXTURE, '--strategy', 'reference,compensated', '--out', join(dir, 'x')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/one strategy/);
  });

  it('refuses an unknown posterior model or method (under its old flag name too), and a posterior of a shard, exit 2', async () => {
    const model = await cli(['decode', '--data', FIXTURE, '--model', 'hmm', '--out', join(dir, 'm')]);
    expect(model.code).toBe(2);
    expect(model.stderr).toMatch(/--model hmm: expected decoder, detector or none/);
    const method = await cli(['decode', '--data', FIXTURE, '--posterior-method', 'sparse', '--out', join(dir, 's')]);
    expect(method.code).toBe(2);
    expect(method.stderr).toMatch(/--posterior-method sparse: expected dense or structured/);
    const strategy = await cli(['decode', '--data', FIXTURE, '--posterior-strategy', 'sparse', '--out', join(dir, 's')]);
    expect(strategy.code).toBe(2);
    expect(strategy.stderr).toMatch(/note: --posterior-strategy is the old name of --posterior-method/);
    expect(strategy.stderr).toMatch(/--posterior-strategy sparse: expected dense or structured/);
    const shard = await cli(['decode', '--data', FIXTURE, '--shard', '0/2', '--model', 'decoder', '--out', join(dir, 'sh'), '--runs-dir', join(dir, 'shard-runs')]);
    expect(shard.code).toBe(2);
    expect(shard.stderr).toMatch(/the posterior needs the likelihood of all of them/);
  });

  it("takes the model's parameters a lab changes, reports them, and refuses ones that do not fit the model, exit 2", async () => {
    const out = join(dir, 'params');
    const ok = await cli(['decode', '--data', FIXTURE, '--model', 'decoder', '--movement-var', '12.5', '--discrete-transition', '[[1]]', '--out', out, '--runs-dir', join(dir, 'param-runs')]);
    expect(ok.code).toBe(0);
    const summary = JSON.parse(await readFile(join(out, 'decode.json'), 'utf8'));
    expect(summary.posterior.parameters).toEqual({ movementVar: 12.5, noSpikeRate: 1e-10, discreteTransition: [[1]] });
    // the decoder has no Local state: the whole decode is the likelihood, the filter and the smoother
    const whole = /whole decode: likelihood \S+ \S+ \+ filter and smoother \S+ \S+ = \S+ \S+, (\d+\.\d\d)× the likelihood alone/.exec(ok.stdout);
    expect(whole, ok.stdout).not.toBeNull();
    expect(Number(whole![1])).toBeGreaterThanOrEqual(1);
    const matrix = await cli(['decode', '--data', FIXTURE, '--model', 'detector', '--discrete-transition', '[[1]]', '--out', join(dir, 'p2')]);
    expect(matrix.code).toBe(2);
    expect(matrix.stderr).toMatch(/--discrete-transition: expected a 4 × 4 array/);
    const variance = await cli(['decode', '--data', FIXTURE, '--movement-var', '-1', '--out', join(dir, 'p3')]);
    expect(variance.code).toBe(2);
    expect(variance.stderr).toMatch(/--movement-var: expected a positive number, got -1/);
    const none = await cli(['decode', '--data', FIXTURE, '--model', 'none', '--no-spike-rate', '1', '--out', join(dir, 'p4')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--no-spike-rate needs a posterior/);
    const localStd = await cli(['decode', '--data', FIXTURE, '--model', 'decoder', '--local-position-std', '2', '--out', join(dir, 'p5')]);
    expect(localStd.code).toBe(2);
    expect(localStd.stderr).toMatch(/--local-position-std: only the detector has a Local state/);
    const negative = await cli(['decode', '--data', FIXTURE, '--model', 'detector', '--local-position-std', '-1', '--out', join(dir, 'p6')]);
    expect(negative.code).toBe(2);
    expect(negative.stderr).toMatch(/--local-position-std: expected a number ≥ 0/);
    const word = await cli(['decode', '--data', FIXTURE, '--model', 'detector', '--local-position-std', 'wide', '--out', join(dir, 'p7')]);
    expect(word.code).toBe(2);
    expect(word.stderr).toMatch(/--local-position-std: expected a number, got "wide"/);
  });

  it('says before it decodes what the posterior stage will hold, the figure its report gives beside the likelihood\'s peak', async () => {
    const out = join(dir, 'estimate');
    const runsDir = join(dir, 'estimate-runs');
    const r = await cli(['decode', '--data', FIXTURE, '--model', 'detector', '--out', out, '--runs-dir', runsDir]);
    expect(r.code, r.stderr).toBe(0);
    const memory = (JSON.parse(await readFile(join(out, 'decode.json'), 'utf8')) as DecodeSummary).posterior!.memory!;
    const estimated = formatBytes(memory.estimatedBytes);
    expect(r.stderr).toContain(`estimated memory of the detector posterior (structured), held besides the likelihood's: ${estimated} of typed arrays (${memory.formula})`);
    expect(r.stdout).toContain(`posterior memory: estimated ${estimated}, measured`);
    const [runId] = (await readdir(runsDir)).filter((f) => /^\d{8}-\d{6}-/.test(f));
    const report = JSON.parse(await readFile(join(runsDir, runId!, 'report.json'), 'utf8')) as Report;
    expect(report.recommendation!.reason).toMatch(
      new RegExp(`an estimated \\S+ \\S+ for the largest electrode; the detector posterior \\(structured\\) holds (\\S+ \\S+ of typed arrays besides \\(measured; estimated ${estimated}\\)|an estimated ${estimated})`),
    );
    // the service's estimate before a run, from the dataset's summary alone, is the engine's to within the band's share
    const before = await estimateRunMemory({
      ...DEFAULT_RUN_CONFIG, data: { kind: 'file', path: FIXTURE }, strategies: ['auto'], posterior: { model: 'detector', methods: ['structured'] },
    });
    expect(Math.abs(before.posterior[0]!.peakBytes - memory.estimatedBytes)).toBeLessThanOrEqual(0.01 * memory.estimatedBytes);
  });
});
