import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeNpyFloat32 } from '../data';
import { likelihoodView, MAX_HEATMAP_COLS, MAX_HEATMAP_ROWS } from './likelihoodView';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'likelihood-view-'));
  await mkdir(join(dir, 'likelihood'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('likelihoodView', () => {
  it('decimates to the heatmap limits and finds the peak bin of each row block', async () => {
    const nTime = 1000;
    const nBins = 1200;
    const ll = new Float64Array(nTime * nBins).fill(-50);
    // the peak walks along the track: bin = 1.2·t
    for (let t = 0; t < nTime; t++) ll[t * nBins + Math.floor(1.2 * t)] = 0;
    await writeFile(join(dir, 'likelihood', 'reference.npy'), encodeNpyFloat32([nTime, nBins], ll));
    await writeFile(join(dir, 'likelihood', 'local.npy'), encodeNpyFloat32([nTime, 1], new Float64Array(nTime)));
    const binCenters = Array.from({ length: nBins }, (_, i) => i * 0.5);
    const time = Array.from({ length: nTime }, (_, i) => i / 100);
    const truePosition = Array.from({ length: nTime }, (_, i) => (i === 3 ? null : i * 0.6));
    await writeFile(join(dir, 'likelihood', 'axes.json'), JSON.stringify({ time, binCenters, truePosition }));

    const view = await likelihoodView(dir, 'run', 'reference');
    expect([view.nTime, view.nBins]).toEqual([nTime, nBins]);
    expect(view.rows).toBe(MAX_HEATMAP_ROWS);
    expect(view.cols).toBe(MAX_HEATMAP_COLS);
    expect(view.values).toHaveLength(view.rows * view.cols);
    expect(view.time[1]).toBeCloseTo(time[2]!);
    // block 0 holds rows 0..1 (1000 → 400 blocks of 2–3 rows); their mean ties bins 0 and 1, the first wins
    expect(view.decodedPosition[0]).toBe(0);
    expect(view.decodedPosition[200]).toBeCloseTo(binCenters[Math.floor(1.2 * 500)]!, 6);
    // block 1 holds rows 2..4; row 3's unknown position (null in JSON) is left out of the mean
    expect(view.truePosition![1]).toBeCloseTo((0.6 * 2 + 0.6 * 4) / 2, 6);
    expect(view.strategies).toEqual(['reference']);
  });

  it('says how to get a likelihood that was not saved', async () => {
    await expect(likelihoodView(dir, 'run', 'chunked')).rejects.toThrow(/--save-likelihood/);
  });
});
