/**
 * What the tests of the whole decode against NLD's posteriors share: the CLI run in a folder, an
 * npz's float arrays by key, and the largest difference of two posteriors with NaN (non-interior
 * bins) counted equal where both have it.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { parseNpy } from '../../src/main/data';

const BIN = fileURLToPath(new URL('../../bin/kde-profiler.mjs', import.meta.url));

export function cliIn(dir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: dir, timeout: 240_000, env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? dir } },
      (err, stdout, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
  });
}

/** Every numeric member of an npz as float64, by key without `.npy`. */
export async function npzArrays(file: string): Promise<Map<string, Float64Array>> {
  const { unzipSync } = await import('fflate');
  const out = new Map<string, Float64Array>();
  for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(await readFile(file))))) {
    const a = parseNpy(bytes);
    if (typeof a.data === 'object' && a.data !== null && 'length' in a.data) out.set(name.replace(/\.npy$/, ''), Float64Array.from(a.data as ArrayLike<number>, Number));
  }
  return out;
}

/** max |a − b| over entries, NaN in both counting as equal and NaN in one as a miss */
export function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i]!) && Number.isNaN(b[i]!)) continue;
    const d = Math.abs(a[i]! - b[i]!);
    worst = Number.isNaN(d) ? Infinity : Math.max(worst, d);
  }
  return worst;
}
