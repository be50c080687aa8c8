// Builds the command line to JavaScript once (out/cli/), so `kde-profiler` starts without compiling
// TypeScript at every start: importing the CLI through tsx took ~0.6 s, the bundle ~0.1 s. Runs at
// install (postinstall) and by `npm run build:cli`; bin/kde-profiler.mjs uses the bundle only while
// no source is newer than it, and falls back to the sources through tsx otherwise.
//
// The entries sit side by side in out/cli/ (chunks too), two folders below the project root as
// out/main/ is, so the paths the code finds from import.meta.url (package.json, resources/engines,
// the engine's and the workers' entries) resolve the same way as in the Electron bundle. Packages
// stay in node_modules (tfjs-backend-wasm finds its .wasm files there, webgpu its dawn.node).
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
export const CLI_OUT = join(root, 'out', 'cli');

export async function buildCli() {
  // esbuild first: where it is not installed (a packed install has no dev tools) a shipped build stays
  const { build } = await import('esbuild');
  rmSync(CLI_OUT, { recursive: true, force: true });
  await build({
    entryPoints: {
      main: join(root, 'src/main/cli/main.ts'),
      engineMain: join(root, 'src/main/engineProcess/engineMain.ts'),
      poolWorker: join(root, 'src/main/engineProcess/pool/poolWorker.ts'),
      scanWorker: join(root, 'src/main/data/nwb/scanWorker.ts'),
    },
    outdir: CLI_OUT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await buildCli();
  } catch (e) {
    // the CLI still runs from the sources (through tsx): a failed build costs start-up time only
    console.error(`kde-profiler: the command line could not be built to JavaScript (${e.message}); it runs from the TypeScript sources instead.`);
    process.exitCode = process.env.KDE_PROFILER_BUILD_STRICT === '1' ? 1 : 0;
  }
}
