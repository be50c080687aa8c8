import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './main';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-cli-relative-'));
  await mkdir(join(dir, 'folder.npz'));
  await mkdir(join(dir, 'folder.nwb'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; stderr: string }> {
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (c) => (err += String(c)));
  const code = await runCli(args, { stdout: new PassThrough(), stderr, cwd: dir });
  return { code, stderr: err };
}

// the service takes absolute paths only; the CLI resolves what a person types against its own folder
describe('relative paths on the command line', () => {
  it('are resolved against the working folder before the service sees them', async () => {
    for (const args of [
      ['run', '--data', 'folder.npz', '--runs-dir', 'runs'],
      ['decode', '--data', 'folder.npz', '--out', 'out', '--runs-dir', 'runs'],
      ['scan', 'folder.nwb'],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(`${join(dir, args[0] === 'scan' ? 'folder.nwb' : 'folder.npz')} is a folder, not a file`);
      expect(r.stderr).not.toContain('relative path');
    }
  });
});
