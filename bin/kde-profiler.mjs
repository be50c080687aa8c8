#!/usr/bin/env node
// Runs the command line: from its JavaScript build (out/cli/, made at install by
// scripts/build-cli.mjs) while no source is newer than that build, else from the TypeScript
// sources through tsx, so a checkout being edited always runs what it holds.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { newestMtimeMs } from '../scripts/newestMtime.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const built = join(root, 'out', 'cli', 'main.mjs');

function useBuild() {
  if (process.env.KDE_PROFILER_FROM_SOURCE === '1' || !existsSync(built)) return false;
  const builtAt = statSync(built).mtimeMs;
  return newestMtimeMs(join(root, 'src'), builtAt) <= builtAt && statSync(join(root, 'package.json')).mtimeMs <= builtAt;
}

let runCli;
if (useBuild()) {
  ({ runCli } = await import(pathToFileURL(built).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ runCli } = await import('../src/main/cli/main.ts'));
}
const code = await runCli(process.argv.slice(2));
// exit once stdout has drained: a loaded GPU backend can hold the event loop open
process.stdout.write('', () => process.exit(code));
