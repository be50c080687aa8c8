import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RUN_CONFIG, type DataSource } from '../../../shared/config';
import { summarizeDataset } from '../../../shared/dataset';
import { loadDataset, makePreset, writeClusterlessNpz } from '../../data';
import { DatasetSummaryCache } from './datasetSummaries';
import { estimateRunMemory } from '../engineInfo';

const tiny: DataSource = { kind: 'preset', name: 'tiny', seed: 42, features: 2, featureScale: 1 };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'summaries-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('DatasetSummaryCache', () => {
  it('answers an estimate with the summary the inspection already made', async () => {
    const cache = new DatasetSummaryCache();
    const inspection = await cache.inspect(tiny);
    expect(await cache.summaryOf({ ...tiny })).toBe(inspection.summary);
    // other generator options are other data
    const otherSeed = await cache.summaryOf({ ...tiny, seed: 7 });
    expect(otherSeed).not.toBe(inspection.summary);
    expect(otherSeed).toEqual(summarizeDataset(await loadDataset({ ...tiny, seed: 7 })));
  });

  it('summarizes once on a miss', async () => {
    const cache = new DatasetSummaryCache();
    const [a, b] = await Promise.all([cache.summaryOf(tiny), cache.summaryOf(tiny)]);
    expect(a).toBe(b);
    expect(await cache.summaryOf(tiny)).toBe(a);
  });

  it('knows a file by path, size and modification time', async () => {
    const path = join(dir, 'data.npz');
    await writeClusterlessNpz(makePreset('tiny', { seed: 1, features: 2, featureScale: 1 }), path);
    const cache = new DatasetSummaryCache();
    const first = (await cache.inspect({ kind: 'file', path })).summary!;
    expect(await cache.summaryOf({ kind: 'file', path })).toBe(first);
    await writeClusterlessNpz(makePreset('small', { seed: 1, features: 2, featureScale: 1 }), path, { overwrite: true });
    const second = await cache.summaryOf({ kind: 'file', path });
    expect(second).not.toBe(first);
    expect(second.nElectrodes).not.toBe(first.nElectrodes);
  });

  it('fails as a load of the file fails, and reads the file again once it changed', async () => {
    const path = join(dir, 'broken.npz');
    await writeFile(path, 'not a zip');
    const cache = new DatasetSummaryCache();
    const loadError = await loadDataset({ kind: 'file', path }).catch((e: unknown) => e);
    await expect(cache.summaryOf({ kind: 'file', path })).rejects.toMatchObject({ code: (loadError as { code: string }).code });
    await writeClusterlessNpz(makePreset('tiny', { seed: 1, features: 2, featureScale: 1 }), path, { overwrite: true });
    expect((await cache.summaryOf({ kind: 'file', path })).nElectrodes).toBe(4);
  });
});

describe('DatasetSummaryCache on NWB', () => {
  it('reads an NWB import through its inspection (in a worker), failing as a load of it would', async () => {
    const path = join(dir, 'session.nwb');
    await copyFile(fileURLToPath(new URL('../../../../test/fixtures/pynapple_A8604-211122.nwb', import.meta.url)), path);
    const loadError = (await loadDataset({ kind: 'file', path }).catch((e: unknown) => e)) as { code: string; message: string };
    await expect(new DatasetSummaryCache().summaryOf({ kind: 'file', path })).rejects.toMatchObject({ code: loadError.code, message: expect.stringMatching(/No position found/) });
  });
});

describe('estimateRunMemory', () => {
  it('estimates from the cached summary', async () => {
    const cache = new DatasetSummaryCache();
    await cache.inspect(tiny);
    const { strategies: estimates } = await estimateRunMemory({ ...DEFAULT_RUN_CONFIG, data: tiny, strategies: ['reference', 'logsumexp'] }, cache);
    expect(estimates.map((e) => e.strategy)).toEqual(['reference', 'logsumexp']);
    expect(estimates[1]!.peakBytes).toBeGreaterThan(estimates[0]!.peakBytes);
  });
});
