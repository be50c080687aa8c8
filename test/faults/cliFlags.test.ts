/**
 * Fault: flags a person mistypes. Before, `--port 70000`, `--threshold -5` and `--runs-dir` on a
 * file or /proc gave raw library errors, a flag given twice silently took the last value,
 * `--no-trace --trace-json` was accepted, and `slurm --shards 1e8` on 4 electrodes wrote an array
 * of 10^8 tasks. Each is now refused with exit 2 and one plain line naming the flag.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../src/main/cli/testing';
import { scratchFolder } from './faultKit';

let folder: Awaited<ReturnType<typeof scratchFolder>>;
beforeEach(async () => {
  folder = await scratchFolder('kde-fault-cli-flags-');
});
afterEach(async () => {
  await folder.remove();
});

describe('fault: mistyped flags', () => {
  it('refuses each with exit 2 and a plain line naming the flag', async () => {
    const aFile = join(folder.path, 'a-file');
    await writeFile(aFile, 'not a folder');
    const cases: Array<[string[], RegExp]> = [
      [['serve', '--port', '70000'], /--port: expected an integer from 0 to 65535, got '70000'/],
      [['compare', '20250101-000000-aaaaaa', '20250101-000000-bbbbbb', '--threshold', '-5'], /--threshold: expected a percentage ≥ 0, got '-5'/],
      [['list', '--runs-dir', aFile], /--runs-dir .*a-file is a file, not a folder/],
      [['run', '--data', 'preset:tiny', '--runs-dir', '/proc/kde-profiler-runs'], /--runs-dir \/proc\/kde-profiler-runs cannot be written/],
      [['list', '--runs-dir', 'a', '--runs-dir', 'b'], /--runs-dir is given twice: give it once/],
      [['run', '--data', 'preset:tiny', '--no-trace', '--trace-json'], /--no-trace and --trace-json contradict each other/],
      [['slurm', '--data', 'preset:tiny', '--shards', '100000000', '--out', join(folder.path, 'slurm')], /--shards: expected an integer from 1 to 100000/],
      [['slurm', '--data', 'preset:tiny', '--shards', '8', '--out', join(folder.path, 'slurm')], /--shards 8: preset:tiny has 4 electrodes/],
    ];
    for (const [args, said] of cases) {
      const r = await runCliCaptured(folder.path, args);
      expect(r.stderr, args.join(' ')).toMatch(said);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    // nothing was recorded or written by the refused commands
    expect((await readdir(folder.path)).sort()).toEqual(['a-file']);
  }, 60_000);
});
