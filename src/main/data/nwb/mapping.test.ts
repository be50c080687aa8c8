import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../../shared/dataset';
import { loadNpz } from '../clusterlessNpz';
import { inspectNwb, loadNwb } from './loadNwb';
import { RECIPE_FORMAT, type NwbRecipe } from './recipe';
import { writeNwb } from './testing';

const fixtures = fileURLToPath(new URL('../../../../test/fixtures/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'kde-nwb-map-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let nld: Dataset;
beforeAll(async () => {
  nld = await loadNpz(join(fixtures, 'nld_clusterless_decoder_inputs.npz'));
});

const base = (path: string): NwbRecipe => ({
  format: RECIPE_FORMAT, files: [path], bins: { kind: 'position' },
  position: { file: 0, path: '/processing/behavior/position/series' },
  electrodes: [{ name: 'merged', encoding: { kind: 'units', file: 0, path: '/processing/ecephys/marks', rows: [0, 1], column: 'spike_waveform_features', features: [0, 2] } }],
});

describe('mapping choices', () => {
  it('every kde_ref fixture written as NWB maps back to the npz arrays', async () => {
    for (const name of readdirSync(fixtures).filter((f) => f.startsWith('kde_ref_'))) {
      const ds = await loadNpz(join(fixtures, name));
      const path = join(dir, name.replace('.npz', '.nwb'));
      await writeNwb(ds, path, { layout: 'ragged', extras: true });
      const recipe: NwbRecipe = {
        ...base(path),
        decodingPosition: { file: 0, path: '/scratch/decoding_position/series' },
        electrodes: ds.electrodes.map((e, i) => ({
          name: e.name,
          encoding: { kind: 'units', file: 0, path: '/processing/ecephys/marks', rows: [i], column: 'spike_waveform_features' },
          decoding: { kind: 'units', file: 0, path: '/processing/ecephys/decoding_marks', rows: [i], column: 'spike_waveform_features' },
        })),
        bins: { kind: 'dataset', file: 0, path: '/scratch/layout/time' },
        grid: { kind: 'dataset', file: 0, centers: '/scratch/layout/place_bin_centers' },
        params: ds.params,
      };
      const back = await loadNwb([path], recipe);
      for (const k of ['positionTime', 'position', 'time', 'decodingPositionTime', 'decodingPosition', 'placeBinCenters', 'params'] as const) expect(back[k], `${name} ${k}`).toEqual(ds[k]);
      expect(back.electrodes, name).toEqual(ds.electrodes);
    }
  });

  it('groups sorted units into one electrode (merged, sorted) and keeps chosen features', async () => {
    const path = join(dir, 'merge.nwb');
    await writeNwb(nld, path, { layout: 'ragged' });
    const ds = await loadNwb([path], base(path));
    const [a, b] = [nld.electrodes[0]!, nld.electrodes[1]!];
    const e = ds.electrodes[0]!;
    expect(e.encodingSpikeTimes.length).toBe(a.encodingSpikeTimes.length + b.encodingSpikeTimes.length);
    expect(e.nFeatures).toBe(2);
    for (let i = 1; i < e.encodingSpikeTimes.length; i++) expect(e.encodingSpikeTimes[i]!).toBeGreaterThanOrEqual(e.encodingSpikeTimes[i - 1]!);
    const k = e.encodingSpikeTimes.indexOf(b.encodingSpikeTimes[0]!);
    expect([e.encodingFeatures[2 * k], e.encodingFeatures[2 * k + 1]]).toEqual([b.encodingFeatures[0], b.encodingFeatures[2]]);
    expect(ds.notes).toContain('/processing/ecephys/marks rows 0, 1 merged into one electrode and sorted by time');
  });

  it('2-D position: a chosen column, y flipped, a built 2-D grid, encoding intervals', async () => {
    const xy = new Float64Array(nld.position.length * 2);
    nld.position.forEach((x, i) => xy.set([x, 100 - x / 2], 2 * i));
    const path = join(dir, 'xy.nwb');
    await writeNwb({ ...nld, position: xy, positionDims: 2 }, path, { layout: 'ragged' });
    const one = await loadNwb([path], { ...base(path), position: { file: 0, path: '/processing/behavior/position/series', columns: [1] } });
    expect(one.positionDims).toBe(1);
    expect(one.position[10]).toBe(100 - nld.position[10]! / 2);
    const r = await inspectNwb([path], { ...base(path), position: { file: 0, path: '/processing/behavior/position/series', flipY: true }, grid: { kind: 'build', placeBinSize: 5 }, encodingIntervals: [[0, 35]] });
    const ds = r.dataset!;
    expect(ds.positionDims).toBe(2);
    expect(ds.position[21]).toBe(-(100 - nld.position[10]! / 2));
    expect(ds.placeBinCenters.length % 2).toBe(0);
    expect(ds.notes.join('\n')).toMatch(/2-D place grid built from place_bin_size 5 from params as non_local_detector builds it: 37 × 20 bins with a padding bin at each end of each axis, \d+ interior/);
    // the whole grid travels with the dataset, so the 2-D posterior can run on it
    expect(ds.placeGrid!.shape).toEqual([37, 20]);
    expect(ds.placeBinCenters.length / 2).toBe(ds.placeGrid!.interior.reduce((s, v) => s + v, 0));
    expect(ds.isTraining!.reduce((s, v) => s + v, 0)).toBe(17500);
  });

  it('SpikeEventSeries in volts become µV marks; unknown recipe rows are named', async () => {
    const path = join(dir, 'volts.nwb');
    await writeNwb(nld, path, { layout: 'spikeEventSeries', volts: true });
    const r = await inspectNwb([path]);
    const e = r.dataset!.electrodes[3]!;
    e.encodingFeatures.forEach((v, i) => expect(v).toBeCloseTo(nld.electrodes[3]!.encodingFeatures[i]!, 9));
    expect(r.dataset!.notes.join('\n')).toMatch(/events_3: marks are each channel's value at sample 1 of 3 × 1000000 \(µV\)/);
    const bad = await inspectNwb([join(dir, 'merge.nwb')], { ...base(join(dir, 'merge.nwb')), electrodes: [{ encoding: { kind: 'units', file: 0, path: '/processing/ecephys/marks', rows: [7], column: 'spike_waveform_features' } }] });
    expect(bad.findings.find((f) => f.code === 'BAD_ARGUMENT')?.message).toMatch(/row 7 of '\/processing\/ecephys\/marks' does not exist \(it has 4 rows\)/);
  });
});
