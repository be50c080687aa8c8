/**
 * The install path for lab servers: `npm pack` makes a tarball that installs with `npm install -g`
 * into a prefix on a machine with only Node, and its `kde-profiler` runs `run`, `serve` and `slurm`.
 * Dependencies come from npm's cache (`--prefer-offline`), which `npm ci` has just filled.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'kde-pack-'));
const prefix = join(work, 'prefix');
const bin = join(prefix, 'bin', 'kde-profiler');
// a clean environment: no checkout on the path, npm quiet, no Electron download attempt
const env = { ...process.env, KDE_PROFILER_SKIP_ELECTRON: '1', npm_config_fund: 'false', npm_config_audit: 'false' };

function cli(args: string[], timeout = 120_000): string {
  return execFileSync(bin, args, { env, cwd: work, timeout, encoding: 'utf8' });
}

describe('the packed tarball', () => {
  beforeAll(() => {
    const out = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--json'], { cwd: ROOT, env, encoding: 'utf8' });
    const [{ filename }] = JSON.parse(out) as [{ filename: string }];
    execFileSync('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(work, filename)], {
      env, cwd: work, timeout: 600_000, stdio: 'ignore',
    });
  }, 660_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('holds the CLI, the engine and the built page, and no tests or development files', () => {
    const pkg = join(prefix, 'lib', 'node_modules', 'kde-profiler');
    expect(existsSync(join(pkg, 'bin', 'kde-profiler.mjs'))).toBe(true);
    expect(existsSync(join(pkg, 'src', 'main', 'engine', 'simd', 'kdeKernelsBinary.ts'))).toBe(true);
    const files = execFileSync('find', [pkg, '-path', join(pkg, 'node_modules'), '-prune', '-o', '-type', 'f', '-print'], { encoding: 'utf8' }).split('\n');
    expect(files.filter((f) => /\.test\.ts$|\/test\/|\/bench\/|\/scratch\//.test(f))).toEqual([]);
  });

  it('runs a recorded benchmark with `kde-profiler run`', () => {
    const runs = join(work, 'runs');
    const out = cli(['run', '--data', 'preset:tiny', '--strategy', 'reference', '--repeats', '1', '--warmup', '0', '--runs-dir', runs]);
    expect(out).toMatch(/recommendation: reference/);
    const [runId] = readdirSync(runs).filter((d) => /^\d{8}-/.test(d));
    expect(JSON.parse(readFileSync(join(runs, runId!, 'report.json'), 'utf8'))).toMatchObject({ status: 'completed' });
  });

  it('writes SLURM scripts with `kde-profiler slurm`', () => {
    const out = cli(['slurm', '--data', 'preset:small', '--shards', '2', '--out', join(work, 'slurm'), '--runs-dir', join(work, 'runs'), '--', '--strategy', 'reference']);
    expect(out).toContain('kde-profiler-shards.sbatch');
    expect(readFileSync(join(work, 'slurm', 'kde-profiler-shards.sbatch'), 'utf8')).toContain('#SBATCH --array=0-1');
  });

  it('serves the web page with `kde-profiler serve`', async () => {
    const pkg = join(prefix, 'lib', 'node_modules', 'kde-profiler');
    if (!existsSync(join(pkg, 'out', 'renderer', 'index.html'))) {
      throw new Error('the tarball has no built page (out/renderer): run `npm run build` before packing');
    }
    const child = spawn(bin, ['serve', '--runs-dir', join(work, 'runs'), '--port', '0'], { env, cwd: work });
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        let text = '';
        child.stdout.on('data', (d: Buffer) => {
          text += d.toString();
          const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(text);
          if (m) resolveUrl(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
        setTimeout(() => reject(new Error(`serve printed no URL in 60 s: ${text}`)), 60_000);
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app"');
    } finally {
      child.kill('SIGTERM');
    }
  }, 90_000);
});
