/**
 * What the command line says about a data file it refuses: every problem can be seen (`validate`,
 * and "(and N more problems)" says how), `scan` on an .npz says what the file is and checks it as
 * `run` would, `sweep` points at `validate` as `run` does, and a run refused for its input is listed as refused, not as an ordinary failure.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { f8, makeNpz, numbersOf, strings, unzipMembers } from '../src/main/data/testing';
import { runCli, type CliResult } from './cliRunner';

const FIXTURE = fileURLToPath(new URL('fixtures/kde_ref_tiny_seed42_D2.npz', import.meta.url));
let dir: string;
let members: Record<string, Uint8Array>;

const cli = (args: string[]): Promise<CliResult> => runCli(dir, args);

/** the tiny fixture with the first spike time of each of its four electrodes' encoding and decoding spikes made NaN: eight problems */
function withEightProblems(): Record<string, Uint8Array> {
  const m = { ...members };
  for (let e = 0; e < 4; e++) {
    for (const key of [`spike_times_${e}`, `decoding_spike_times_${e}`]) {
      const { data } = numbersOf(m, key);
      data[0] = Number.NaN;
      m[key] = f8(data);
    }
  }
  return m;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-cli-problems-'));
  members = unzipMembers(await readFile(FIXTURE));
  await writeFile(join(dir, 'bad.npz'), makeNpz(withEightProblems()));
  await writeFile(join(dir, 'good.npz'), makeNpz({ ...members, format: strings(['clusterless-npz/1']) }));
  await writeFile(join(dir, 'unmarked.npz'), makeNpz(members));
  await writeFile(join(dir, 'other.npz'), makeNpz({ ...members, format: strings(['my-lab/3']) }));
  await writeFile(join(dir, 'notes.npz'), 'position,time\n1,2\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('every problem of a refused file', () => {
  it('run names how to see the problems it does not list, and validate lists every one with code, key, electrode and what to do', async () => {
    const run = await cli(['run', '--data', 'bad.npz', '--strategy', 'reference', '--repeats', '1', '--runs-dir', 'runs']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/\(and 7 more problems: .*2 more not listed\)/);
    expect(run.stderr).toContain(`kde-profiler validate ${join(dir, 'bad.npz')}`);

    const all = await cli(['validate', 'bad.npz']);
    expect(all.code, all.stderr).toBe(2);
    for (let e = 0; e < 4; e++) {
      for (const key of [`spike_times_${e}`, `decoding_spike_times_${e}`]) {
        expect(all.stdout).toMatch(new RegExp(`E\\d{3} +${key} +e${e} .*NaN`));
      }
    }
    expect(all.stdout).toMatch(/8 problems/);
    expect(all.stdout).toMatch(/what to do: /);
    const json = await cli(['validate', 'bad.npz', '--json']);
    const parsed = JSON.parse(json.stdout) as { findings: { severity: string }[] };
    expect(parsed.findings.filter((f) => f.severity === 'error')).toHaveLength(8);
  });

  it('sweep refuses the file in the same words as run, with the same pointer, and leaves no sweep behind', async () => {
    const sweep = await cli(['sweep', '--data', 'bad.npz', '--vary', 'electrodes=1,2', '--strategy', 'reference', '--repeats', '1', '--runs-dir', 'sweep-runs']);
    expect(sweep.code, sweep.stderr).toBe(2);
    expect(sweep.stderr).toMatch(/^kde-profiler sweep: bad.npz: .*NaN/m);
    expect(sweep.stderr).toContain(`Every problem, with what to do about each: kde-profiler validate ${join(dir, 'bad.npz')}`);
    const listed = await cli(['list', '--runs-dir', 'sweep-runs']);
    expect(listed.stdout).toMatch(/no runs/);
  });
});

describe('scan on an .npz', () => {
  it('says what the file is, checks it as run would and says how to use it', async () => {
    const good = await cli(['scan', 'good.npz']);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/a clusterless-npz\/1 file/);
    expect(good.stdout).toMatch(/4 electrodes/);
    expect(good.stdout).toContain(`--data ${join(dir, 'good.npz')}`);
    const unmarked = await cli(['scan', 'unmarked.npz']);
    expect(unmarked.code, unmarked.stderr).toBe(0);
    expect(unmarked.stdout).toMatch(/no 'format' key/);
    const other = await cli(['scan', 'other.npz']);
    expect(other.stdout).toMatch(/'my-lab\/3'/);
  });

  it('says what is wrong with an npz that fails its checks, and with a file that is no npz at all', async () => {
    const bad = await cli(['scan', 'bad.npz']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toMatch(/E\d{3} +decoding_spike_times_3 +e3/);
    expect(bad.stderr).toMatch(/8 problems/);
    const text = await cli(['scan', 'notes.npz']);
    expect(text.code).toBe(2);
    expect(`${text.stdout}${text.stderr}`).toMatch(/not a zip archive/);
    expect(`${text.stdout}${text.stderr}`).not.toMatch(/not an NWB/);
  });
});

describe('a run refused for its input', () => {
  it('is listed as refused with its reason, and a run that did work is not', async () => {
    const runsDir = join(dir, 'refused-runs');
    const refused = await cli(['run', '--data', 'bad.npz', '--strategy', 'reference', '--repeats', '1', '--runs-dir', runsDir]);
    expect(refused.code).toBe(2);
    const listed = await cli(['list', '--runs-dir', runsDir]);
    expect(listed.code, listed.stderr).toBe(0);
    const row = listed.stdout.split('\n').find((l) => l.includes('bad'));
    expect(row).toMatch(/ refused +/);
    expect(row).toMatch(/input refused: E\d{3}/);
    const json = JSON.parse((await cli(['list', '--runs-dir', runsDir, '--json'])).stdout) as { status: string; refused?: boolean }[];
    expect(json[0]).toMatchObject({ status: 'failed', refused: true });
  });
});
