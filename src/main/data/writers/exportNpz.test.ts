import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../../shared/dataset';
import { writeClusterlessNpz } from './exportNpz';
import { loadNpz } from '../clusterlessNpz';
import { makePreset } from '../presets';

describe('writeClusterlessNpz', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'export-npz-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the whole place grid with its bins off the track, so a posterior read back has the same columns', async () => {
    const preset = makePreset('tiny');
    const grid = preset.placeGrid!;
    // two bins off the track, as a recording with a gap in its occupancy has
    const interior = Uint8Array.from(grid.interior, (v, i) => (i === 1 || i === 4 ? 0 : v));
    const centers = grid.centers.filter((_, i) => interior[i] === 1);
    const ds: Dataset = { ...preset, placeGrid: { centers: grid.centers, interior }, placeBinCenters: Float64Array.from(centers) };
    const path = join(dir, 'gap.npz');
    await writeClusterlessNpz(ds, path);
    const back = await loadNpz(path);
    expect(Array.from(back.placeGrid!.centers)).toEqual(Array.from(grid.centers));
    expect(Array.from(back.placeGrid!.interior)).toEqual(Array.from(interior));
    expect(Array.from(back.placeBinCenters)).toEqual(Array.from(centers));
  });

  it('writes the interior centres alone for a dataset that knows no whole grid', async () => {
    const { placeGrid: _dropped, ...bare } = makePreset('tiny');
    const path = join(dir, 'bare.npz');
    await writeClusterlessNpz(bare, path);
    const back = await loadNpz(path);
    expect(back.placeGrid).toBeUndefined();
    expect(Array.from(back.placeBinCenters)).toEqual(Array.from(bare.placeBinCenters));
  });
});
