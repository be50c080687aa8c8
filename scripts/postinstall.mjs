// Builds the command line to JavaScript (build-cli.mjs), then fetches the Electron binary where
// the network allows it. Electron >= 42 no longer downloads at install time; without the binary
// the CLI, web mode and tests all work, only the desktop window needs it. Never fails the install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

// the command line, built to JavaScript once so that it starts without compiling TypeScript
spawnSync(process.execPath, [fileURLToPath(new URL('./build-cli.mjs', import.meta.url))], { stdio: 'inherit', timeout: 120_000 });

function electronDir() {
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
}

const dir = electronDir();
if (dir === null || process.env.KDE_PROFILER_SKIP_ELECTRON === '1') process.exit(0);
if (existsSync(join(dir, 'path.txt')) && existsSync(join(dir, 'dist'))) process.exit(0);

const bin = join(dir, '..', '.bin', process.platform === 'win32' ? 'install-electron.cmd' : 'install-electron');
const result = existsSync(bin)
  ? spawnSync(bin, [], { stdio: 'ignore', timeout: 120_000, shell: process.platform === 'win32' })
  : { status: 1 };
if (result.status !== 0) {
  console.log(
    'kde-profiler: the Electron binary could not be downloaded; the CLI and web mode work without it. ' +
      'For the desktop window, run `npx install-electron` when online.',
  );
}
