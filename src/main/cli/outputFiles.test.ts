import { mkdtemp, readdir, readFile, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOutputTarget, writeOutputFile } from './outputFiles';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-output-files-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('output files', () => {
  it('replace an earlier file whole and leave no temporary file', async () => {
    const target = join(dir, 'a.txt');
    await writeFile(target, 'old');
    await writeOutputFile(target, 'new');
    expect(await readFile(target, 'utf8')).toBe('new');
    expect(await readdir(dir)).toEqual(['a.txt']);
  });

  it('unless told to replace, keep a file already at the target and leave no temporary file', async () => {
    const target = join(dir, 'a.txt');
    await writeOutputFile(target, 'first', false);
    await expect(writeOutputFile(target, 'second', false)).rejects.toThrow(/EEXIST/);
    expect(await readFile(target, 'utf8')).toBe('first');
    expect(await readdir(dir)).toEqual(['a.txt']);
  });

  it('refuse a link or a folder at the target, and write nothing through it', async () => {
    await writeFile(join(dir, 'victim'), 'kept');
    await symlink(join(dir, 'victim'), join(dir, 'link'));
    await expect(writeOutputFile(join(dir, 'link'), 'x')).rejects.toThrow(/is a symbolic link/);
    expect(await readFile(join(dir, 'victim'), 'utf8')).toBe('kept');
    await mkdir(join(dir, 'folder'));
    await expect(checkOutputTarget(join(dir, 'folder'))).rejects.toThrow(/not a regular file/);
    await expect(checkOutputTarget(join(dir, 'absent'))).resolves.toBeUndefined();
  });

});
