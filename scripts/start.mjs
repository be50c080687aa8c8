// `npm start`: the desktop window when the Electron binary is installed, web mode otherwise.
// Builds out/ first when it is missing or older than the sources. Arguments after `--` go to
// `kde-profiler serve` in web mode (e.g. `npm start -- --port 8080`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestMtimeMs } from './newestMtime.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);

/** The Electron executable if installed. Not require('electron'): that starts a download when it is absent. */
function electronBinary() {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (process.env.KDE_PROFILER_NO_ELECTRON === '1' || !existsSync(pathFile)) return null;
  const exe = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(exe) ? exe : null;
}

/** out/ exists for every target and is newer than anything it is built from. */
function isBuilt(outputs) {
  const built = Math.min(...outputs.map((o) => (existsSync(join(root, o)) ? statSync(join(root, o)).mtimeMs : 0)));
  const sources = Math.max(newestMtimeMs(join(root, 'src')), newestMtimeMs(join(root, 'electron.vite.config.ts')));
  return built > 0 && built >= sources;
}

function build() {
  console.log('kde-profiler: building the app (npm run build)…');
  const bin = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const result = spawnSync(process.execPath, [bin, 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) {
    console.error('kde-profiler: the build failed; run `npm run build` to see why.');
    process.exit(result.status ?? 1);
  }
}

/** Runs a child in the foreground: Ctrl+C reaches it through the terminal, and its exit code becomes ours. */
function foreground(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
}

const electron = electronBinary();
if (electron) {
  if (!isBuilt(['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'])) build();
  foreground(electron, [root, ...args]);
} else {
  console.log('kde-profiler: the desktop window needs the Electron binary (`npx install-electron` when online); starting web mode instead.');
  if (!isBuilt(['out/renderer/index.html'])) build();
  foreground(process.execPath, [join(root, 'bin', 'kde-profiler.mjs'), 'serve', ...args]);
}
