/**
 * The CLI refuses what it cannot honour before any work starts: an `--out` it could not write, a
 * flag or strategy it does not know (naming the nearest one it does). Each refusal is exit 2, one
 * line on stderr in the `kde-profiler <command>: …` form, and no run in the run store.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../src/main/cli/testing';

let dir: string;
let runsDir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-cli-flags-'));
  runsDir = join(dir, 'runs');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `kde-profiler ARGS…` refused: exit 2, one line naming the problem, and no run recorded */
async function refused(args: string[], said: RegExp): Promise<string> {
  const r = await runCliCaptured(dir, [...args, '--runs-dir', runsDir]);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(new RegExp(`^kde-profiler ${args[0]}: `));
  expect(r.stderr).toMatch(said);
  expect(await readdir(runsDir).catch(() => [])).toEqual([]);
  return r.stderr;
}

describe('outputs are checked before any work', () => {
  it('run --out onto a file is refused before the profile runs (it used to run, then fail with EEXIST)', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, 'kept\n');
    await refused(['run', '--data', 'preset:tiny', '--strategy', 'reference', '--out', file], /--out: .*a-file is a file: name a folder/);
    await refused(['run', '--data', 'preset:tiny', '--out', join(file, 'sub')], /a-file is a file, so .*sub cannot be made in it/);
    expect(await readFile(file, 'utf8')).toBe('kept\n');
  });

  it('run --out under a folder that cannot be written is refused at once (it used to hang in mkdir under /proc)', async () => {
    await refused(['run', '--data', 'preset:tiny', '--out', '/proc/kde-profiler-out/x'], /--out \/proc\/kde-profiler-out\/x cannot be written \(\w+ in \/proc\)/);
  }, 10_000);

  it('run --out whose report.md is a link is refused before the run, not after it', async () => {
    const out = join(dir, 'linked-out');
    await mkdir(out);
    await symlink(join(dir, 'victim.md'), join(out, 'report.md'));
    await refused(['run', '--data', 'preset:tiny', '--out', out], /report\.md is a symbolic link/);
  });

  it('decode --out onto a file is refused before the decode (it used to decode, then fail with ENOTDIR)', async () => {
    const file = join(dir, 'decode-file');
    await writeFile(file, 'kept\n');
    await refused(['decode', '--data', 'preset:tiny', '--out', file], /--out: .*decode-file is a file/);
  });

  it('sweep --out onto a file is refused before the first run (it used to run every value, then fail)', async () => {
    const file = join(dir, 'sweep-file');
    await writeFile(file, 'kept\n');
    await refused(['sweep', '--data', 'preset:tiny', '--vary', 'bins=50,100', '--out', file], /--out: .*sweep-file is a file/);
  });

  it('export --out keeps an existing file, refuses a link and a missing folder, and says what to do', async () => {
    const id = '20250101-000000-aaaaaa';
    const kept = join(dir, 'kept.md');
    await writeFile(kept, 'mine\n');
    await refused(['export', id, '--format', 'md', '--out', kept], /kept\.md already exists: export does not replace a file; name a new file, remove it, or give --force/);
    expect(await readFile(kept, 'utf8')).toBe('mine\n');
    const victim = join(dir, 'victim.txt');
    await writeFile(victim, 'not a report\n');
    await symlink(victim, join(dir, 'link.md'));
    for (const force of [[], ['--force']]) {
      await refused(['export', id, '--format', 'md', '--out', join(dir, 'link.md'), ...force], /link\.md is a symbolic link/);
    }
    expect(await readFile(victim, 'utf8')).toBe('not a report\n');
    await refused(['export', id, '--format', 'md', '--out', join(dir, 'no-such-folder', 'r.md')], /the folder .*no-such-folder does not exist: make it first/);
  });
});

describe('a data file the loader would refuse', () => {
  it('that is no zip archive is refused before a run is made (it used to leave a failed run, its line prefixed "error:")', async () => {
    const text = join(dir, 'notes.npz');
    await writeFile(text, 'position_time,spikes\n');
    await refused(['run', '--data', text], /--data .*notes\.npz is not a \.npz file \(a \.npz is a zip archive/);
    await refused(['decode', '--data', text, '--out', join(dir, 'never')], /is not a \.npz file/);
  });

  it('that is a zip without the arrays is refused in the command error form, naming how to see every problem, its run listed as refused', async () => {
    const store = join(dir, 'refused-store');
    const junk = join(dir, 'junk.npz');
    await writeFile(junk, zipSync({ 'hello.txt': strToU8('hi') }));
    const r = await runCliCaptured(dir, ['run', '--data', junk, '--runs-dir', store]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^kde-profiler run: junk\.npz: Required array 'position_time' not found/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`kde-profiler validate ${junk}`);
    const list = await runCliCaptured(dir, ['list', '--runs-dir', store]);
    expect(list.stdout).toMatch(/\brefused\b.*junk\.npz.*input refused: E001/);
  }, 60_000);
});

describe('numbers, repeats and contradictions', () => {
  it('are refused with a line naming the flag, the range and what was given', async () => {
    await refused(['run', '--data', 'preset:tiny', '--repeats', '-3'], /--repeats: expected an integer ≥ 1, got '-3'$/m);
    await refused(['run', '--data', 'preset:tiny', '--repeats', '2', '--repeats', '3'], /--repeats is given twice: give it once/);
    await refused(['run', '--data', 'preset:tiny', '--no-trace', '--trace-json'], /--no-trace and --trace-json contradict each other/);
    await refused(['serve', '--port', '70000'], /--port: expected an integer from 0 to 65535, got '70000'/);
  });
});

describe('"did you mean"', () => {
  it('names the nearest flag for an unknown one', async () => {
    await refused(['run', '--data', 'preset:tiny', '--repeat', '3'], /unknown flag --repeat; did you mean --repeats\?$/m);
    await refused(['decode', '--data', 'preset:tiny', '--rows-per-chunks', '9', '--out', join(dir, 'd')], /did you mean --rows-per-chunk\?/);
    await refused(['run', '--data', 'preset:tiny', '--zzzz'], /unknown flag --zzzz \(--help lists the flags\)/);
  });

  it('names the nearest strategy for an unknown one', async () => {
    await refused(['run', '--data', 'preset:tiny', '--strategy', 'reference,compansated'], /got "compansated"; did you mean compensated\?/);
    await refused(['run', '--data', 'preset:tiny', '--strategy', 'logsumexp-tield'], /did you mean logsumexp-tiled\?/);
  });

  it('names the nearest command for an unknown one', async () => {
    const r = await runCliCaptured(dir, ['exprot']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^kde-profiler: unknown command 'exprot'; did you mean export\? \(commands: /);
  });
});

describe('what the checks let through', () => {
  it('run --out into a folder of earlier results replaces them; export replaces a file only with --force', async () => {
    // a store of its own: the refusals above check that theirs stays empty
    const store = join(dir, 'store');
    const out = join(dir, 'earlier');
    await mkdir(out);
    await writeFile(join(out, 'report.json'), '{}');
    const run = await runCliCaptured(dir, ['run', '--data', 'preset:tiny', '--strategy', 'reference', '--repeats', '1', '--out', out, '--runs-dir', store]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))).toHaveProperty('strategies');
    const [runId] = (await readdir(store)).filter((n) => /^\d{8}-/.test(n));
    const file = join(dir, 'exported.md');
    await writeFile(file, 'mine\n');
    const kept = await runCliCaptured(dir, ['export', runId!, '--format', 'md', '--out', file, '--runs-dir', store]);
    expect([kept.code, await readFile(file, 'utf8')]).toEqual([2, 'mine\n']);
    const forced = await runCliCaptured(dir, ['export', runId!, '--format', 'md', '--out', file, '--force', '--runs-dir', store]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).toContain('#');
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  }, 120_000);
});

describe('list', () => {
  it('gives a damaged run\'s whole reason below the table, where the column would cut off its cause', async () => {
    const store = join(dir, 'damaged-store');
    const run = join(store, '20260101-000000-abcdef');
    await mkdir(run, { recursive: true });
    await symlink('/dev/zero', join(run, 'status.json'));
    const list = await runCliCaptured(dir, ['list', '--runs-dir', store]);
    expect(list.code, list.stderr).toBe(0);
    // the table shows the reason relative to the runs folder, cut with a pointer below
    expect(list.stdout).toMatch(/20260101-000000-abcdef\s+failed.*damaged: 20260101-000000-abcdef\/status\.json.*… \(below\)/);
    expect(list.stdout).toMatch(/^20260101-000000-abcdef: damaged: .*status\.json .*symbolic link/m);
  }, 60_000);
});
