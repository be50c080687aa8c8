import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report, TimingStats } from '../../shared/report';
import { timingStats } from '../analysis';
import { exampleReport } from '../export/exampleReport.testdata';
import { compareCommand } from './compareCommand';
import type { CliIo } from './cliTypes';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-compare-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** the example run with every warm timing drawn from `samples(phase)`, scaled by `factor` */
async function reportFile(name: string, samples: (base: number) => number[], factor = 1, busy = false): Promise<string> {
  const r: Report = exampleReport();
  if (busy) r.environment = { ...r.environment, load: { loadAverageStart: [6.4], loadAverageEnd: [7.1], otherCpuShare: 0.6, busy: true } };
  const redraw = (t: TimingStats | undefined): TimingStats | undefined =>
    t && timingStats(t.firstMs, samples(t.medianMs).map((x) => x * factor));
  r.strategies = r.strategies.map((s) => ({ ...s, encode: redraw(s.encode), decode: redraw(s.decode), total: redraw(s.total) }));
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(r));
  return file;
}

async function compare(a: string, b: string): Promise<{ code: number; stdout: string }> {
  const out = new PassThrough();
  let stdout = '';
  out.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const io: CliIo = { stdout: out, stderr: new PassThrough(), cwd: dir };
  const code = await compareCommand.run([a, b, '--threshold', '10', '--runs-dir', join(dir, 'runs')], io);
  return { code, stdout };
}

// nine repeats spread ±20 % around the median, in two different orders: the same distribution
const spread = [1, 0.82, 1.17, 0.9, 1.2, 0.85, 1.08, 0.95, 1.12];
const drawA = (ms: number): number[] => spread.map((f) => ms * f);
const drawB = (ms: number): number[] => [...spread].reverse().map((f) => ms * f);

describe('kde-profiler compare', () => {
  it('calls two runs of the same sample distribution within noise and exits 0', async () => {
    const { code, stdout } = await compare(await reportFile('a', drawA), await reportFile('b', drawB));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^No regression beyond 10 %/m);
    expect(stdout).toMatch(/reference total median ms .*\[0\.\d\d, 1\.\d\d\]\s+within noise$/m);
    expect(stdout).not.toContain('REGRESSION');
  });

  it('flags a real 2× change as a regression with its interval and exits 3', async () => {
    const { code, stdout } = await compare(await reportFile('a2', drawA), await reportFile('slow', drawB, 2));
    expect(code).toBe(3);
    expect(stdout).toMatch(/^B regresses beyond 10 %: .*B\/A 2\.00× \(95 % CI 1\.\d\d–2\.\d\d\)/m);
    expect(stdout).toMatch(/reference total median ms .*\[1\.\d\d, 2\.\d\d\]\s+REGRESSION$/m);
  });

  it('calls the same change inconclusive and exits 4 when a run was measured on a busy machine', async () => {
    const { code, stdout } = await compare(await reportFile('a3', drawA), await reportFile('busy', drawB, 2, true));
    expect(code).toBe(4);
    expect(stdout).toMatch(/^Inconclusive \(machine busy\): B looks slower beyond 10 %/m);
  });
});
