/**
 * Strings from a data file are data in every output: a file named with HTML, a terminal escape
 * a right-to-left override and a leading spreadsheet formula, whose electrodes are named as markup, run
 * from the command line. report.md shows them as text (no tag, no link, no acting character),
 * report.csv's cells are never formulas, and nothing the CLI prints (run, list, export) carries an
 * escape sequence or a bidi control to the terminal.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePreset } from '../../src/main/data';
import { writeClusterlessNpz } from '../../src/main/data/writers';

const BIN = fileURLToPath(new URL('../../bin/kde-profiler.mjs', import.meta.url));
const ESC = '\x1b';
const RLO = '\u202e';
const FORMULA = '=SUM(1+2)';
const HOSTILE_NAME = `${FORMULA}<img src=x onerror=alert(1)>${ESC}]0;owned${ESC}\\${RLO}fdp`;

let dir: string;
let file: string;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: dir, timeout: 120_000 }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** the escape, bell and CSI characters and the bidi controls found in text: none may reach a terminal or a report */
const ACTING = new Set([0x1b, 0x07, 0x9b, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
const acting = (text: string): string[] => [...text].filter((c) => ACTING.has(c.codePointAt(0)!));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-untrusted-'));
  const ds = makePreset('tiny', { seed: 3 });
  ds.electrodes[0]!.name = FORMULA;
  ds.electrodes[1]!.name = '[link](javascript:alert(1)) <b>bold</b>';
  file = join(dir, `${HOSTILE_NAME}.npz`);
  await writeClusterlessNpz({ ...ds, name: HOSTILE_NAME }, file);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('strings from a data file', () => {
  it('reach report.md as text, report.csv as text, and the terminal without acting characters', async () => {
    const out = join(dir, 'out');
    const run = await cli(['run', '--data', file, '--strategy', 'reference', '--repeats', '1', '--warmup', '0', '--out', out, '--runs-dir', join(dir, 'runs')]);
    expect(run.code, run.stderr).toBe(0);
    expect(acting(run.stdout + run.stderr)).toEqual([]);
    expect(run.stdout).toContain('\\u202e');

    const md = await readFile(join(out, 'report.md'), 'utf8');
    // a tag only where its < is not escaped
    expect(md).not.toMatch(/(^|[^\\])<(img|b>)/m);
    expect(md).not.toContain('](javascript');
    expect(acting(md)).toEqual([]);
    expect(md).toContain('\\<img src=x onerror=alert(1)>');

    const csv = await readFile(join(out, 'report.csv'), 'utf8');
    const cells = csv.split('\n').flatMap((line) => line.split(','));
    expect(cells.filter((c) => /^"?[=+@]/.test(c))).toEqual([]);
    // the dataset's name in its column, as text
    expect(csv).toContain(`,'${FORMULA}<img`);

    const list = await cli(['list', '--runs-dir', join(dir, 'runs')]);
    expect(list.code, list.stderr).toBe(0);
    expect(acting(list.stdout + list.stderr)).toEqual([]);
    const id = /run (\S+): report in/.exec(run.stdout + run.stderr)?.[1];
    expect(id, run.stdout + run.stderr).toBeDefined();
    const exported = await cli(['export', id!, '--format', 'md', '--runs-dir', join(dir, 'runs')]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(acting(exported.stdout)).toEqual([]);
  });
});
