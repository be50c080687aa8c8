import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectData, loadDataset } from '../index';
import { inspectNwbInWorker, scanNwbInWorker } from './inspectInWorker';
import { inspectNwb } from './loadNwb';
import { scanNwb } from './scan';
import { scanForMapping } from './scanView';
import { readUnits } from './units';

const pynapple = fileURLToPath(new URL('../../../../test/fixtures/pynapple_A8604-211122.nwb', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'kde-nwb-real-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the real pynapple NWB file', () => {
  it('scans its units, electrode group and epochs without reading data', async () => {
    const [s] = await scanNwb([pynapple]);
    expect(s!.nwbVersion).toBe('2.4.0');
    expect(s!.identifier).toBe('A8604-211122');
    expect(s!.position).toEqual([]);
    expect(s!.spikeTables).toHaveLength(1);
    const t = s!.spikeTables[0]!;
    expect(t).toMatchObject({ path: '/units', neurodataType: 'Units', nUnits: 3, nSpikes: 21354, spikesPerUnit: [11020, 4690, 5644], unitIds: [6, 191, 206], featureColumns: [] });
    expect(t.unitGroups).toEqual(['group0_psb', 'group0_psb', 'group0_psb']);
    expect(t.timeRange![0]).toBeCloseTo(0.028133, 6);
    expect(s!.electrodeGroups).toEqual(['group0_psb']);
    expect(s!.intervals).toEqual([{ file: 0, path: '/intervals/epochs', rows: [{ start: 0, stop: 1087.5289 }] }]);
  });

  it('imports its units: 3 spike trains, 21,354 spikes (uint16 index)', async () => {
    const units = await readUnits(pynapple);
    expect(units.map((u) => [u.id, u.group, u.times.length])).toEqual([[6, 'group0_psb', 11020], [191, 'group0_psb', 4690], [206, 'group0_psb', 5644]]);
    for (const u of units) for (let i = 1; i < u.times.length; i++) expect(u.times[i]!).toBeGreaterThanOrEqual(u.times[i - 1]!);
  });

  it('says clearly that position and marks are missing', async () => {
    const r = await inspectNwb([pynapple]);
    expect(r.dataset).toBeNull();
    expect(r.recipe).toBeNull();
    const codes = r.findings.map((f) => f.code);
    expect(codes).toEqual(['E001', 'E030']);
    expect(r.findings[0]!.message).toMatch(/^pynapple_A8604-211122\.nwb: No position found: no SpatialSeries/);
    expect(r.findings[1]!.message).toMatch(/No marks found: .*\/units has 3 units with 21,354 spike times but no per-spike mark column/);
  });

  it('inspectData runs it in a worker and returns the findings; loadDataset throws the first', async () => {
    const r = await inspectData({ kind: 'file', path: pynapple });
    expect(r.summary).toBeNull();
    expect(r.findings.map((f) => f.code)).toEqual(['E001', 'E030']);
    await expect(loadDataset({ kind: 'file', path: pynapple })).rejects.toMatchObject({ code: 'E001', message: expect.stringMatching(/\(and 1 more problem: E\d{3}.*\)$/) });
  });
});

describe('unreadable HDF5 input gives a clean error', () => {
  const cases: [string, () => Uint8Array, RegExp][] = [
    ['empty file', () => new Uint8Array(0), /is empty \(0 bytes\)/],
    ['no HDF5 signature', () => new TextEncoder().encode('just some text, not hdf5'), /is not an HDF5 file/],
    ['random bytes after an HDF5 signature', () => {
      const b = new Uint8Array(4096);
      let x = 12345;
      for (let i = 0; i < b.length; i++) b[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
      b.set([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]);
      return b;
    }, /cannot be opened as HDF5 .*truncated or corrupt/],
    ['a truncated real file', () => readFileSync(pynapple).subarray(0, 200_000), /truncated or corrupt/],
  ];
  for (const [name, bytes, message] of cases) {
    it(name, async () => {
      const path = join(dir, `${name.replace(/\W+/g, '-')}.nwb`);
      writeFileSync(path, bytes());
      const r = await inspectNwb([path]);
      expect(r.dataset).toBeNull();
      const errors = r.findings.filter((f) => f.severity === 'error');
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.map((e) => e.message).join('\n')).toMatch(message);
      expect(errors.every((e) => e.code === 'E090' || e.code === 'E001' || e.code === 'E030')).toBe(true);
    });
  }

  it('a missing file is NOT_FOUND, through the worker too', async () => {
    const r = await inspectNwbInWorker([join(dir, 'absent.nwb')]);
    expect(r.findings).toEqual([expect.objectContaining({ code: 'NOT_FOUND', severity: 'error' })]);
  });

  it('the worker is stopped when the process outgrows its memory budget', async () => {
    const path = join(dir, 'hungry.nwb');
    copyFileSync(pynapple, path);
    // a budget of one byte: the worker's own start outgrows it
    await expect(inspectNwbInWorker([path], undefined, 60_000, 1)).rejects.toMatchObject({
      code: 'E090', message: expect.stringMatching(/hungry\.nwb: inspecting the file took more than 0 MiB of memory and was stopped/),
    });
  });

  it("the mapping step's scan runs in the worker too: the same candidates, stopped at its limits", async () => {
    const path = join(dir, 'scanned.nwb');
    copyFileSync(pynapple, path);
    expect(await scanNwbInWorker([path])).toEqual(await scanForMapping([path]));
    await expect(scanNwbInWorker([path], { timeoutMs: 1, memoryBytes: 2 ** 40 })).rejects.toMatchObject({
      code: 'E090', message: expect.stringMatching(/scanned\.nwb: inspecting the file took longer than 0.001 s/),
    });
  });

  it('the worker is stopped at its time limit', async () => {
    const path = join(dir, 'slow.nwb');
    copyFileSync(pynapple, path);
    await expect(inspectNwbInWorker([path], undefined, 1)).rejects.toMatchObject({ code: 'E090', message: expect.stringMatching(/took longer than 0.001 s and was stopped/) });
  });
});
