import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Calibration } from '../../engine/model';
import { CALIBRATION_FILE, CALIBRATION_MAX_AGE_MS, calibrated, calibrationKey, type Machine } from './calibrationCache';

const machine: Machine = { hostname: 'lab-1', cpuModel: 'AMD EPYC' };
const wasm = { name: 'wasm' as const, device: 'CPU (WebAssembly SIMD, one thread)', tfjsVersion: '4.22.0' };
const webgpu = { name: 'webgpu' as const, device: 'llvmpipe (Mesa, software)', tfjsVersion: '4.22.0' };
const T0 = new Date('2024-05-01T12:00:00.000Z');

function sample(backend: string, matmulGflops: number, at = T0): Calibration {
  return {
    backend, device: 'd', matmulGflops, expGelemsPerS: 0.1, logGelemsPerS: 0.2, bandwidthGBps: 20, measuredAt: at.toISOString(), durationMs: 300,
  };
}

describe('calibrated', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'calibration-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('measures once per machine and backend, then answers from the file', async () => {
    const measure = vi.fn(async () => sample('wasm', 30));
    const options = { machine, now: () => T0 };
    const first = await calibrated(wasm, measure, dir, options);
    const second = await calibrated(wasm, measure, dir, options);
    expect(measure).toHaveBeenCalledTimes(1);
    expect(second).toEqual(first);
    const file = JSON.parse(await readFile(join(dir, CALIBRATION_FILE), 'utf8'));
    expect(file.entries[calibrationKey(wasm, machine)]).toEqual(first);
  });

  it('measures again for another backend, machine or device, and keeps both', async () => {
    const options = { machine, now: () => T0 };
    await calibrated(wasm, async () => sample('wasm', 30), dir, options);
    const gpu = await calibrated(webgpu, async () => sample('webgpu', 4), dir, options);
    expect(gpu.matmulGflops).toBe(4);
    const other = vi.fn(async () => sample('wasm', 25));
    await calibrated(wasm, other, dir, { ...options, machine: { ...machine, hostname: 'lab-2' } });
    await calibrated({ ...wasm, device: 'CPU (WebAssembly, one thread)' }, other, dir, options);
    expect(other).toHaveBeenCalledTimes(2);
    const again = await calibrated(wasm, async () => sample('wasm', 1), dir, options);
    expect(again.matmulGflops).toBe(30);
  });

  it('measures again once an entry is older than the limit', async () => {
    await calibrated(wasm, async () => sample('wasm', 30), dir, { machine, now: () => T0 });
    const later = () => new Date(T0.getTime() + CALIBRATION_MAX_AGE_MS + 1);
    const measure = vi.fn(async () => sample('wasm', 31, later()));
    expect((await calibrated(wasm, measure, dir, { machine, now: later })).matmulGflops).toBe(31);
    expect((await calibrated(wasm, measure, dir, { machine, now: later, maxAgeMs: 10 * CALIBRATION_MAX_AGE_MS })).matmulGflops).toBe(31);
    expect(measure).toHaveBeenCalledTimes(1);
  });

  it('a damaged file or entry means measuring again and rewriting it', async () => {
    await writeFile(join(dir, CALIBRATION_FILE), '{ not json');
    expect((await calibrated(wasm, async () => sample('wasm', 30), dir, { machine, now: () => T0 })).matmulGflops).toBe(30);
    const file = JSON.parse(await readFile(join(dir, CALIBRATION_FILE), 'utf8'));
    file.entries[calibrationKey(wasm, machine)].matmulGflops = -1;
    await writeFile(join(dir, CALIBRATION_FILE), JSON.stringify(file));
    expect((await calibrated(wasm, async () => sample('wasm', 29), dir, { machine, now: () => T0 })).matmulGflops).toBe(29);
  });

  it('a folder that cannot be written still gives the measurement, with a warning', async () => {
    const blocked = join(dir, 'a-file');
    await writeFile(blocked, 'not a folder');
    const warnings: string[] = [];
    const c = await calibrated(wasm, async () => sample('wasm', 30), blocked, { machine, now: () => T0, onWarning: (m) => warnings.push(m) });
    expect(c.matmulGflops).toBe(30);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(CALIBRATION_FILE);
  });
});
