/**
 * `npm run bench:bundle -- --out DIR`: a self-contained folder that measures the engine beside its
 * peers on a machine with no package registry and no node_modules (an offline GPU machine): Node
 * itself, xz-compressed; the engine side of the peer bench and the adapter report as esbuild
 * bundles; the tfjs wasm binaries; Dawn's `webgpu` package for linux-x64 (dawn.node compressed);
 * the Python peers (NumPy, and non_local_detector when its source is given); the float64 reference
 * tool that makes the data there; and check.sh, which runs it all and writes one JSON.
 *
 *   npm run bench:bundle -- --out DIR [--nld-src PATH] [--debs DIR] [--reference-tool PATH] [--max-mib 46]
 *
 * --nld-src (default $KDE_PROFILER_NLD_SRC) is the src/ folder of a non_local_detector checkout:
 * its package is copied without its tests; it never enters this repository. The folder is
 * replaced as a whole, so a rebuild leaves nothing stale in it.
 *
 * --debs DIR carries the Debian packages in DIR (the Vulkan loader libvulkan1 and the GL vendor
 * libraries libglvnd0, libglx0, libegl1, from `apt-get download`) for a machine whose image lacks
 * them: check.sh unpacks them beside its work files when the machine has no Vulkan loader, since
 * Dawn cannot open the GPU without one.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { AppError } from '../../src/shared/errors';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NLD_SRC_ENV = 'KDE_PROFILER_NLD_SRC';
const PEER_SCRIPTS = ['kde_peer.py', 'nld_peer.py'];
/** the modules the peers share with the external engines (resources/engines/), copied beside them */
const PEER_MODULES = ['peer_data.py', 'peer_env.py', 'peer_model.py', 'nld_support.py'];
const WASM_BINARIES = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'];

// An ES module bundle of CommonJS packages still needs require, __dirname and __filename: the
// wasm backend finds its .wasm files beside the script through __dirname.
const ESM_PRELUDE = [
  "import { createRequire as __bundleRequire } from 'node:module';",
  "import { fileURLToPath as __bundlePath } from 'node:url';",
  "import { dirname as __bundleDir } from 'node:path';",
  'const require = __bundleRequire(import.meta.url);',
  'const __filename = __bundlePath(import.meta.url);',
  'const __dirname = __bundleDir(__filename);',
].join('\n');

function options() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      'nld-src': { type: 'string', default: process.env[NLD_SRC_ENV] },
      'reference-tool': { type: 'string', default: resolve(REPO_ROOT, '..', 'shared', 'tools', 'kde_reference.py') },
      debs: { type: 'string' },
      'max-mib': { type: 'string', default: '46' },
    },
  });
  if (!values.out) throw new AppError('BAD_ARGUMENT', 'bench:bundle: give the folder to write with --out DIR (it is replaced).');
  if (!existsSync(values['reference-tool']!)) {
    throw new AppError('NOT_FOUND', `bench:bundle: the reference tool ${values['reference-tool']} is missing; pass --reference-tool PATH (shared/tools/kde_reference.py).`);
  }
  const nldSrc = values['nld-src'] || null;
  if (nldSrc && !existsSync(join(nldSrc, 'non_local_detector', '__init__.py'))) {
    throw new AppError('NOT_FOUND', `bench:bundle: ${nldSrc} holds no non_local_detector package; give the src/ folder of an NLD checkout, or leave --nld-src out.`);
  }
  const debs = values.debs ? debFiles(values.debs) : [];
  const maxMib = Number(values['max-mib']);
  if (!(maxMib > 0)) throw new AppError('BAD_ARGUMENT', `bench:bundle: --max-mib must be a positive number, got ${values['max-mib']}.`);
  return { out: resolve(values.out), nldSrc, debs, referenceTool: values['reference-tool']!, maxMib };
}

function debFiles(dir: string): string[] {
  const found = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.deb')) : [];
  if (found.length === 0) {
    throw new AppError('NOT_FOUND', `bench:bundle: --debs ${dir} holds no .deb files; fill it with \`apt-get download libvulkan1 libglvnd0 libglx0 libegl1\` or leave --debs out.`);
  }
  return found.map((name) => join(dir, name));
}

function xz(from: string, to: string): void {
  execFileSync('sh', ['-c', 'xz -T2 -6 -c "$1" > "$2"', 'xz', from, to], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function bundleEngine(dir: string): Promise<void> {
  await build({
    entryPoints: {
      engineSide: join(REPO_ROOT, 'bench/peer/engineSide.ts'),
      adapterInfo: join(REPO_ROOT, 'bench/offline/adapterInfo.ts'),
      // the engine pool's worker thread, so wasm can run on every core (engineSide --workers N)
      poolWorker: join(REPO_ROOT, 'src/main/engineProcess/pool/poolWorker.ts'),
    },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // webgpu is loaded at run time from node_modules beside the bundle; the TensorFlow packages
    // that need libtensorflow cannot travel and are only probed for
    external: ['webgpu', '@tensorflow/tfjs-node', '@tensorflow/tfjs-node-gpu'],
    banner: { js: ESM_PRELUDE },
    logLevel: 'warning',
  });
  const wasmDir = join(REPO_ROOT, 'node_modules/@tensorflow/tfjs-backend-wasm/dist');
  for (const name of WASM_BINARIES) copyFileSync(join(wasmDir, name), join(dir, name));
}

function copyWebGpu(dir: string): void {
  const from = join(REPO_ROOT, 'node_modules/webgpu');
  const to = join(dir, 'node_modules/webgpu');
  mkdirSync(join(to, 'dist/linux-x64'), { recursive: true });
  for (const name of ['package.json', 'index.js', 'LICENSE.md']) copyFileSync(join(from, name), join(to, name));
  // check.sh unpacks it where index.js looks for it
  xz(join(from, 'dist/linux-x64/dawn.node'), join(to, 'dist/linux-x64/dawn.node.xz'));
}

function copyPeers(dir: string, referenceTool: string): void {
  mkdirSync(dir, { recursive: true });
  for (const name of PEER_SCRIPTS) copyFileSync(join(REPO_ROOT, 'bench/peer', name), join(dir, name));
  for (const name of PEER_MODULES) copyFileSync(join(REPO_ROOT, 'resources/engines', name), join(dir, name));
  copyFileSync(referenceTool, join(dir, 'kde_reference.py'));
}

function copyNld(src: string, dir: string): void {
  cpSync(join(src, 'non_local_detector'), join(dir, 'non_local_detector'), {
    recursive: true,
    filter: (path) => !/(^|\/)(tests|__pycache__)(\/|$)/.test(relative(src, path)),
  });
}

function sizeOf(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

async function main(): Promise<void> {
  const o = options();
  rmSync(o.out, { recursive: true, force: true });
  mkdirSync(o.out, { recursive: true });
  process.stderr.write('bundling the engine…\n');
  await bundleEngine(join(o.out, 'engine'));
  process.stderr.write('compressing dawn.node and node…\n');
  copyWebGpu(join(o.out, 'engine'));
  xz(process.execPath, join(o.out, 'node.xz'));
  copyPeers(join(o.out, 'peer'), o.referenceTool);
  if (o.nldSrc) copyNld(o.nldSrc, join(o.out, 'nld'));
  if (o.debs.length > 0) {
    mkdirSync(join(o.out, 'libs'));
    for (const deb of o.debs) copyFileSync(deb, join(o.out, 'libs', basename(deb)));
  }
  copyFileSync(join(REPO_ROOT, 'bench/offline/check.sh'), join(o.out, 'check.sh'));
  copyFileSync(join(REPO_ROOT, 'bench/offline/summarize.py'), join(o.out, 'peer', 'summarize.py'));
  const parts = Object.fromEntries(readdirSync(o.out).map((name) => [name, sizeOf(join(o.out, name))]));
  const total = Object.values(parts).reduce((a, b) => a + b, 0);
  writeFileSync(
    join(o.out, 'manifest.json'),
    JSON.stringify({ createdAt: new Date().toISOString(), node: process.version, nld: o.nldSrc !== null, debs: o.debs.map((d) => basename(d)), bytes: parts, totalBytes: total }, null, 2),
  );
  const mib = total / 2 ** 20;
  console.log(`bundle ${o.out}: ${mib.toFixed(1)} MiB${o.nldSrc ? ', with non_local_detector' : ', without non_local_detector (no --nld-src)'}`);
  if (mib > o.maxMib) {
    throw new AppError('RUN_FAILED', `bench:bundle: ${mib.toFixed(1)} MiB is over --max-mib ${o.maxMib}; leave NLD's source out or raise the limit where the machine takes more.`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
