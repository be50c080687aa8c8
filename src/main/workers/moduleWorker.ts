/**
 * Starting a worker thread on one of the project's own modules, from source (under tsx, which a
 * worker does not inherit, so it registers the loader first) and from the Electron bundle (where
 * worker entries sit in out/main/ while the code starting them may sit in out/main/chunks/). Used by
 * the NWB inspection worker and the engine pool.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The entry `name` beside the caller (`callerUrl` is its import.meta.url): `name.ts` from source;
 * in a bundle `name.js` (Electron's) or `name.mjs` (the offline bench's) beside the caller, else one
 * folder up.
 */
export function moduleWorkerEntry(callerUrl: string, name: string): URL {
  if (callerUrl.endsWith('.ts')) return new URL(`./${name}.ts`, callerUrl);
  const candidates = ['./', '../'].flatMap((dir) => ['.js', '.mjs'].map((ext) => new URL(`${dir}${name}${ext}`, callerUrl)));
  return candidates.find((url) => existsSync(fileURLToPath(url))) ?? candidates[2]!;
}

/** tsx's ESM API, resolved through its package exports so the worker can load TypeScript */
function tsxApiUrl(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(pkgPath), pkg.exports['./esm/api']!.import.default)).href;
}

/** Starts the worker on `entry` (from moduleWorkerEntry) with `workerData`. */
export function startModuleWorker(entry: URL, workerData: unknown): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(fileURLToPath(entry), { workerData });
  const code = `import(${JSON.stringify(tsxApiUrl())}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(code, { eval: true, workerData });
}
