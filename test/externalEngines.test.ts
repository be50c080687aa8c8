/**
 * External engines through `kde-profiler run`, against a tiny engine that speaks protocol 1 by
 * hand (test/support/engines/script_engine.py, NumPy only): one that decodes, and one each that
 * crashes, cannot run here, writes garbage, writes a result of the wrong shape, and hangs with a
 * grandchild past its time limit. Each failure is a failed row saying why; the run, the other
 * rows and the trace are kept; nothing the engines started outlives the run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunConfig } from '../src/shared/config';
import type { SpanRecord, TraceRecord } from '../src/shared/events';
import type { Report, StrategyResult } from '../src/shared/report';
import { runCliCaptured } from '../src/main/cli/testing';
import { createProfilerService } from '../src/main/service';

const SCRIPT = fileURLToPath(new URL('./support/engines/script_engine.py', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/kde_ref_tiny_seed42_D2.npz', import.meta.url));
const engine = (mode: string) => `cmd:python3 ${SCRIPT} ${mode}`;

function numpyMissing(): string | undefined {
  try {
    execFileSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'python3 with NumPy is not installed here: the script engine needs it';
  }
}

/** whether a process runs: a zombie (ended, not yet reaped by whoever inherited it) does not */
async function running(pid: number): Promise<boolean> {
  if (process.platform === 'linux') {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    return stat !== '' && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const skip = numpyMissing();
if (skip) console.warn(`externalEngines.test.ts skipped: ${skip}`);

describe.skipIf(skip !== undefined)('external engines in a run', () => {
  let dir: string;
  let runDir: string;
  let report: Report;
  let cli: { code: number; stdout: string; stderr: string };
  const row = (mode: string): StrategyResult => report.strategies.find((s) => s.strategy === engine(mode))!;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kde-external-'));
    const modes = ['ok', 'crash', 'unavailable', 'garbage', 'wrong-shape', 'children'];
    cli = await runCliCaptured(dir, [
      'run', '--data', FIXTURE, '--strategy', 'reference', '--repeats', '2', '--warmup', '1', '--no-kernel-profile',
      '--engine-timeout', '3', '--engine-trace', ...modes.flatMap((m) => ['--engine', engine(m)]), '--runs-dir', join(dir, 'runs'),
    ]);
    const [id] = await readdir(join(dir, 'runs')).then((names) => names.filter((n) => /^\d{8}-/.test(n)));
    runDir = join(dir, 'runs', id!);
    report = JSON.parse(await readFile(join(runDir, 'report.json'), 'utf8')) as Report;
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('times the engine that decodes, checks its likelihood against the reference, and keeps the run', () => {
    expect(report.status).toBe('completed');
    expect(cli.code, cli.stderr).toBe(1); // the failing engines' rows fail the command, as a failed strategy does
    const ok = row('ok');
    expect(ok.status).toBe('ok');
    expect(ok.total?.n).toBe(2);
    expect(ok.stages.map((s) => s.name).sort()).toEqual(['fit', 'predict']);
    // the script returns the file's float64 expected likelihood: the reference strategy agrees with it to float32
    expect(ok.agreementWithReference?.maxAbsDiff).toBeLessThan(1e-4);
    expect(ok.agreementWithExpected?.maxAbsDiff).toBe(0);
    expect(ok.external).toMatchObject({ engine: 'script', dtype: 'float64', exitCode: 0, counters: { calls: 4 } });
    expect(ok.external?.peakRssBytes).toBeGreaterThan(1e6);
    expect(report.agreementMatrix?.strategies).toEqual(['reference', engine('ok')]);
  });

  it('fails each misbehaving engine with its reason, and keeps none of its timings', () => {
    expect(row('crash').error?.message).toMatch(/^exited with code 1: ValueError: the decoder blew up/);
    expect(row('unavailable')).toMatchObject({ status: 'failed', external: { exitCode: 3, unavailable: "the script's decoder package is not installed" } });
    expect(row('garbage').error?.message).toMatch(/broke the external-engine protocol .*events line 2 is not JSON/);
    expect(row('wrong-shape').error?.message).toMatch(/ll.npy has shape \(50, 99\); the data's grid is \(50, 100\)/);
    expect(row('children').error?.message).toMatch(/ran past its 3 s limit and was stopped/);
    for (const mode of ['crash', 'unavailable', 'garbage', 'wrong-shape', 'children']) expect(row(mode).total).toBeUndefined();
    expect(cli.stderr).toContain(`error: ${engine('crash')} failed: exited with code 1`);
  });

  it('stops what a hung engine started along with it', async () => {
    const folder = (await readdir(join(runDir, 'external'))).find((f) => f.startsWith('6-'))!;
    const pid = Number(await readFile(join(runDir, 'external', folder, 'grandchild.pid'), 'utf8'));
    expect(await running(pid)).toBe(false);
  });

  it("records each engine on a lane of its own, with its process tree's memory, and removes the data copy", async () => {
    const records = (await readFile(join(runDir, 'events.ndjson'), 'utf8')).trim().split('\n').flatMap((l) => JSON.parse(l) as TraceRecord[]);
    const external = records.filter((r) => r.proc === 'external');
    expect(external.filter((r) => r.ph === 'M').map((r) => (r.args as { name: string }).name)).toContain(engine('ok'));
    expect(external.filter((r) => r.ph === 'X' && r.name === 'predict').length).toBeGreaterThanOrEqual(4);
    expect(external.some((r) => r.ph === 'C' && r.name === `${engine('ok')} memory (MB)`)).toBe(true);
    expect(await readdir(join(runDir, 'external'))).not.toContain('data.npz');
    // the framework's trace: its threads as lanes under the engine's, its first event where the engine said
    const framework = external.filter((r): r is SpanRecord => r.ph === 'X' && r.cat === 'framework');
    const lanes = external.filter((r) => r.ph === 'M' && r.tid > 100).map((r) => (r.args as { name: string }).name);
    expect(lanes).toContain(`${engine('ok')} · XLA ops`);
    expect(framework.map((r) => r.name).sort()).toContain('dot');
    const dot = framework.find((r) => r.name === 'dot')!;
    expect(framework.find((r) => r.name === 'reduce')!.ts - dot.ts).toBeCloseTo(50, 3);
    expect(dot.args).toEqual({ hlo: 'dot.1' });
    const lastPredict = Math.max(...external.filter((r): r is SpanRecord => r.ph === 'X' && r.name === 'predict' && r.tid === 1).map((r) => r.ts + r.dur));
    expect(dot.ts).toBeGreaterThanOrEqual(lastPredict);
  });
});

describe.skipIf(skip !== undefined)('an external engine that decodes the whole model', () => {
  let dir: string;
  let report: Report;
  const row = (mode: string): StrategyResult => report.strategies.find((s) => s.strategy === engine(mode))!;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kde-external-posterior-'));
    await runCliCaptured(dir, [
      'run', '--data', 'preset:tiny', '--strategy', 'reference', '--repeats', '1', '--warmup', '0', '--no-kernel-profile',
      '--model', 'decoder', '--posterior-method', 'structured',
      '--engine', engine('posterior'), '--engine', engine('posterior-wrong-shape'), '--runs-dir', join(dir, 'runs'), '--out', join(dir, 'out'),
    ]);
    const [id] = await readdir(join(dir, 'runs')).then((names) => names.filter((n) => /^\d{8}-/.test(n)));
    report = JSON.parse(await readFile(join(dir, 'runs', id!, 'report.json'), 'utf8')) as Report;
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("compares its acausal posterior with the run's own, and a disagreement is a finding", () => {
    expect(report.status).toBe('completed');
    const posterior = row('posterior');
    expect(posterior.status).toBe('ok');
    expect(posterior.external?.posterior).toEqual({ model: 'decoder', file: expect.stringMatching(/^external\/1-[^/]+\/posterior\.npy$/) });
    // a uniform posterior is far from a decoded one: compared, not allclose, and said so
    expect(posterior.agreementWithReference).toMatchObject({ against: "the run's decoder posterior (structured)", allclose: false });
    expect(posterior.agreementWithReference!.maxAbsDiff).toBeGreaterThan(0.01);
    expect(report.findings.some((f) => f.strategy === engine('posterior') && /disagrees with the run's decoder posterior/.test(f.message))).toBe(true);
    // it sent no likelihood: it stays out of the likelihoods' agreement matrix
    expect(report.agreementMatrix?.strategies ?? []).not.toContain(engine('posterior'));
  });

  it("copies the posteriors to --out where the report's paths point", async () => {
    const copied = JSON.parse(await readFile(join(dir, 'out', 'report.json'), 'utf8')) as Report;
    const files = [...Object.values(copied.posterior!.files), row('posterior').external!.posterior!.file];
    for (const file of files) expect((await stat(join(dir, 'out', file))).size, file).toBeGreaterThan(128);
  });

  it('fails an engine whose posterior has the wrong columns, naming the shape it should have', () => {
    const bins = report.dataset.nBins;
    expect(row('posterior-wrong-shape').error?.message).toMatch(
      new RegExp(`posterior.npy has shape \\(${report.dataset.nTime}, ${bins - 1}\\); the data's grid is \\(${report.dataset.nTime}, ${bins}\\) \\(time rows, the decoder's state bins\\)`),
    );
  });
});

describe('who may start a command', () => {
  it("refuses a page's cmd: engine or Python, which only the command line may name", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kde-external-page-'));
    const service = createProfilerService({ runsDir: join(dir, 'runs') });
    try {
      const data = { kind: 'preset', name: 'tiny' };
      await expect(service.startRun(parseRunConfig({ data, engines: ['cmd:rm -rf /'] }))).rejects.toThrow(/only the command line may start/);
      await expect(service.startRun(parseRunConfig({ data, engines: ['numpy'], enginePython: '/tmp/evil' }))).rejects.toThrow(/chosen on the command line/);
      expect(await service.listRuns()).toEqual([]);
    } finally {
      await service.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
