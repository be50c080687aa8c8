/**
 * The offline bench bundle (bench/offline) builds and its check runs from a copy outside the
 * repository, as it would on a machine without node_modules: the adapter report, data made by the
 * float64 reference tool, the NumPy peer and the bundled engine on wasm and webgpu, every result
 * agreeing with the float64 likelihood. A packaging mistake fails here rather than on a GPU
 * machine lent for a few minutes. Needs python3 with NumPy, xz and ../shared's reference tool.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REFERENCE_TOOL = join(ROOT, '..', 'shared', 'tools', 'kde_reference.py');

interface Step {
  kind: string;
  name: string;
  exitCode: number;
  result?: Record<string, unknown>;
  error?: string;
  skipped?: string;
}

function missing(): string | null {
  const py = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' });
  if (py.error || py.status !== 0) return 'python3 with NumPy is not available';
  if (spawnSync('xz', ['--version']).error) return 'xz is not installed';
  if (!existsSync(REFERENCE_TOOL)) return `the reference tool ${REFERENCE_TOOL} is missing`;
  return null;
}

/**
 * A Debian package holding this machine's own Vulkan loader, the way `apt-get download libvulkan1`
 * would give one, so the bundle's carried-libraries path runs for real; null where the machine has
 * no loader or no dpkg-deb to pack it.
 */
function loaderDeb(work: string): string | null {
  const found = /\s(\/\S*libvulkan\.so\.1)$/m.exec(spawnSync('ldconfig', ['-p'], { encoding: 'utf8' }).stdout ?? '');
  const library = found?.[1];
  if (!library || spawnSync('dpkg-deb', ['--version']).error) return null;
  const tree = join(work, 'deb-tree');
  mkdirSync(join(tree, 'DEBIAN'), { recursive: true });
  mkdirSync(join(tree, 'usr/lib/x86_64-linux-gnu'), { recursive: true });
  copyFileSync(library, join(tree, 'usr/lib/x86_64-linux-gnu/libvulkan.so.1'));
  writeFileSync(join(tree, 'DEBIAN/control'), 'Package: test-vulkan-loader\nVersion: 1.0\nArchitecture: amd64\nMaintainer: test <test@localhost>\nDescription: loader copy\n');
  const debs = join(work, 'debs');
  mkdirSync(debs);
  const packed = spawnSync('dpkg-deb', ['--build', '--root-owner-group', tree, join(debs, 'libvulkan1.deb')], { encoding: 'utf8' });
  return packed.status === 0 ? debs : null;
}

describe('offline bench bundle', () => {
  const work = mkdtempSync(join(tmpdir(), 'kde-bundle-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('builds, and its check runs the peer and the engine from the bundle alone', (ctx) => {
    const why = missing();
    if (why) ctx.skip(`skipped: ${why}`);
    const bundle = join(work, 'bundle');
    const debs = loaderDeb(work);
    const built = spawnSync(process.execPath, ['--import', 'tsx', 'bench/offline/buildBundle.ts', '--out', bundle, '--nld-src', '', ...(debs ? ['--debs', debs] : [])], {
      cwd: ROOT, encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as { totalBytes: number; nld: boolean; debs: string[] };
    expect(manifest.nld).toBe(false);
    expect(manifest.debs).toEqual(debs ? ['libvulkan1.deb'] : []);
    expect(manifest.totalBytes).toBeLessThan(46 * 2 ** 20);

    const results = join(work, 'results');
    const check = spawnSync('bash', [join(bundle, 'check.sh'), '--out', results, '--presets', 'tiny', '--backends', 'wasm,webgpu',
      '--strategies', 'reference,series', '--repeats', '1', '--warmup', '0', '--step-timeout-s', '120', '--cpu-workers', '2'], {
      cwd: work, encoding: 'utf8', env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? work, KDE_BUNDLE_USE_LIBS: '1' },
    });
    expect(check.status, check.stderr).toBe(0);
    // the carried loader is the one Dawn opened the adapter through (webgpu's result is checked below)
    if (debs) expect(check.stderr).toContain('using the Vulkan loader and GL libraries the bundle carries (libvulkan1.deb)');
    expect(check.stderr).toContain('carries no non_local_detector');
    const steps = (JSON.parse(readFileSync(join(results, 'check.json'), 'utf8')) as { steps: Step[] }).steps;
    const adapter = steps.find((s) => s.kind === 'adapter')?.result as { active: Record<string, { name?: string; error?: string }> };
    expect(adapter.active.wasm?.name).toBe('wasm');
    const peer = steps.find((s) => s.kind === 'numpy');
    expect(peer?.result?.parity).toMatchObject({ ok: true });
    const webgpuRuns = adapter.active.webgpu?.name === 'webgpu';
    const engines = steps.filter((s) => s.kind === 'engine' && (webgpuRuns || !/webgpu( op-graph)?$/.test(s.name)));
    // wasm on the pool's two worker threads; each webgpu cell runs twice: the engine's WGSL kernels, then TensorFlow.js's op graphs
    expect(engines.map((s) => s.name)).toEqual(
      webgpuRuns
        ? ['tiny reference wasm ×2', 'tiny series wasm ×2', 'tiny reference webgpu', 'tiny reference webgpu op-graph', 'tiny series webgpu', 'tiny series webgpu op-graph']
        : ['tiny reference wasm ×2', 'tiny series wasm ×2'],
    );
    expect(engines.filter((e) => e.name.includes('wasm')).map((e) => e.result?.workers)).toEqual([2, 2]);
    for (const e of engines) {
      expect(e.error, e.name).toBeUndefined();
      expect(e.result?.vsExpected, e.name).toMatchObject({ ok: true });
      expect(e.result?.vsPeer, e.name).toMatchObject({ ok: true });
    }
    expect(check.stdout).toMatch(/\| tiny \| series wasm ×2 \|/);
  });
});
