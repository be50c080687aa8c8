import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../src/shared/report';
import { parseNpy } from '../src/main/data';
import { validateReport } from '../src/main/export';
import { newRunId } from '../src/main/service';
import { runCli, type CliResult } from './cliRunner';

let dir: string;
let runsDir: string;

const cli = (args: string[]): Promise<CliResult> => runCli(dir, args);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-cli-'));
  runsDir = join(dir, 'runs');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('kde-profiler run', () => {
  let runId: string;

  it('writes a valid report, likelihoods of the right size and a trace into --out', async () => {
    const out = join(dir, 'out');
    const r = await cli([
      'run', '--data', 'preset:tiny', '--strategy', 'reference,compensated', '--repeats', '2', '--warmup', '1',
      '--save-likelihood', '--local', '--out', out, '--runs-dir', runsDir,
    ]);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/compensated\s+ok/);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect(validateReport(report)).toEqual({ ok: true, errors: [] });
    runId = report.runId!;
    expect(report.strategies.map((s) => [s.strategy, s.decode?.n])).toEqual([['reference', 2], ['compensated', 2]]);
    const { nTime, nBins } = report.dataset;
    for (const s of ['reference', 'compensated']) {
      const bytes = await readFile(join(out, 'likelihood', `${s}.npy`));
      const npy = parseNpy(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      expect(npy.dtype.descr).toBe('<f4');
      expect(npy.shape).toEqual([nTime, nBins]);
      expect(npy.data.length).toBe(nTime * nBins);
    }
    const local = await readFile(join(out, 'likelihood', 'local.npy'));
    expect(parseNpy(new Uint8Array(local)).shape).toEqual([nTime, 1]);
    const trace = JSON.parse(gunzipSync(await readFile(join(out, 'trace.json.gz'))).toString('utf8'));
    expect(trace.traceEvents.some((e: { name: string; args?: Record<string, unknown> }) => e.name === 'strategy' && e.args?.strategy === 'compensated')).toBe(true);
    expect((await stat(join(out, 'report.md'))).size).toBeGreaterThan(0);
    expect((await stat(join(runsDir, runId, 'report.json'))).isFile()).toBe(true);
  });

  it('lists the run and exports its report and trace', async () => {
    const list = await cli(['list', '--runs-dir', runsDir]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(runId);
    const md = await cli(['export', runId, '--format', 'md', '--runs-dir', runsDir]);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/compensated/);
    const file = join(dir, 'exported.json');
    const trace = await cli(['export', runId, '--format', 'trace-json', '--out', file, '--runs-dir', runsDir]);
    expect(trace.code).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8')).traceEvents.length).toBeGreaterThan(10);
  });

  it('exits 3 from compare when B regresses beyond the threshold, 0 when it does not', async () => {
    const slowId = newRunId();
    await cp(join(runsDir, runId), join(runsDir, slowId), { recursive: true });
    const report = JSON.parse(await readFile(join(runsDir, slowId, 'report.json'), 'utf8')) as Report;
    for (const s of report.strategies) {
      for (const t of [s.encode, s.decode, s.total]) {
        if (!t) continue;
        t.samplesMs = t.samplesMs.map((x) => x * 2);
        t.medianMs *= 2;
        t.meanMs *= 2;
      }
    }
    // both runs as measured on a quiet machine (this one may have run under load): a busy run makes a
    // timing change inconclusive, exit 4, tested below
    const quiet = async (id: string, r: Report) => {
      if (r.environment.load) r.environment.load.busy = false;
      await writeFile(join(runsDir, id, 'report.json'), JSON.stringify(r));
    };
    const original = JSON.parse(await readFile(join(runsDir, runId, 'report.json'), 'utf8')) as Report;
    await quiet(runId, original);
    await writeFile(join(dir, 'out', 'report.json'), JSON.stringify(original));
    await quiet(slowId, report);
    const status = JSON.parse(await readFile(join(runsDir, slowId, 'status.json'), 'utf8'));
    await writeFile(join(runsDir, slowId, 'status.json'), JSON.stringify({ ...status, id: slowId }));

    const worse = await cli(['compare', runId, slowId, '--threshold', '20', '--runs-dir', runsDir]);
    expect(worse.code).toBe(3);
    expect(worse.stdout).toMatch(/decode median/);
    expect(worse.stdout).toMatch(/regress/i);
    const same = await cli(['compare', runId, runId, '--runs-dir', runsDir]);
    expect(same.code).toBe(0);
    // an --out folder compares as well as a run id
    const byPath = await cli(['compare', join(dir, 'out'), slowId, '--threshold', '20', '--runs-dir', runsDir]);
    expect(byPath.code).toBe(3);
    // the same change, B measured on a busy machine: inconclusive, exit 4
    report.environment.load = { loadAverageStart: [6.1], loadAverageEnd: [7.4], busy: true };
    await writeFile(join(runsDir, slowId, 'report.json'), JSON.stringify(report));
    const busy = await cli(['compare', runId, slowId, '--threshold', '20', '--runs-dir', runsDir]);
    expect(busy.code).toBe(4);
    expect(busy.stdout).toMatch(/^Inconclusive \(machine busy\)/m);
  });
});

describe('kde-profiler errors', () => {
  it.each([
    [['run', '--data', 'preset:tiny', '--frobnicate'], /--frobnicate/],
    [['run', '--data', 'preset:tiny', '--repeats', 'many'], /--repeats: expected an integer/],
    [['run', '--data', 'preset:tiny', '--strategy', 'fastest'], /--strategy: .*"fastest"/],
    [['run', '--data', 'preset:huge'], /--data preset:NAME: .*"huge"/],
    [['run', '--data', 'preset:tiny', '--backend', 'cuda'], /--backend: .*"cuda"/],
    [['run'], /--data is required/],
    [['compare', 'only-one'], /two runs/],
    [['export', 'not-an-id'], /not a run id/],
    [['nonsense'], /unknown command 'nonsense'/],
  ])('%j exits 2 with one clear line', async (args, message) => {
    const r = await cli(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('names a missing data file and exits 2', async () => {
    const r = await cli(['run', '--data', 'no-such-file.npz', '--runs-dir', runsDir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no-such-file\.npz/);
  });

  it('names a file that is not an .npz and exits 2', async () => {
    await writeFile(join(dir, 'garbage.npz'), 'not a zip file');
    const r = await cli(['run', '--data', 'garbage.npz', '--runs-dir', runsDir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/garbage\.npz/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('kde-profiler info', () => {
  it('lists the backends with wasm available', async () => {
    const r = await cli(['info', '--json']);
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.backends.find((b: { name: string }) => b.name === 'wasm').available).toBe(true);
    expect(info.tfjsVersion).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
