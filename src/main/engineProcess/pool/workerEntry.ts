/**
 * Starting the pool's worker threads from source (under tsx, which a worker does not inherit, so
 * it registers the loader first) and from the Electron bundle (the worker entry sits in out/main/,
 * beside engineMain.js, while this code may sit in out/main/chunks/).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const RUNNING_TS = import.meta.url.endsWith('.ts');

function workerEntry(): URL {
  if (RUNNING_TS) return new URL('./poolWorker.ts', import.meta.url);
  const here = new URL('./poolWorker.js', import.meta.url);
  return existsSync(fileURLToPath(here)) ? here : new URL('../poolWorker.js', import.meta.url);
}

/** tsx's ESM API, resolved through its package exports */
function tsxApiUrl(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(pkgPath), pkg.exports['./esm/api']!.import.default)).href;
}

export function startPoolWorker(workerData: unknown): Worker {
  if (!RUNNING_TS) return new Worker(fileURLToPath(workerEntry()), { workerData });
  const code = `import(${JSON.stringify(tsxApiUrl())}).then((m) => { m.register(); return import(${JSON.stringify(workerEntry().href)}); })`;
  return new Worker(code, { eval: true, workerData });
}
