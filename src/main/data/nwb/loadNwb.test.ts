import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../../shared/dataset';
import { fitEncodingModel, initBackend, predictNonlocal } from '../../engine';
import { loadNpz } from '../clusterlessNpz';
import { inspectNwb, loadNwb } from './loadNwb';
import { RECIPE_FORMAT, type NwbRecipe } from './recipe';
import { writeNwb, type MarkLayout } from './testing';

const fixture = (name: string) => fileURLToPath(new URL(`../../../../test/fixtures/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'kde-nwb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let tiny: Dataset;
let nld: Dataset;
beforeAll(async () => {
  tiny = await loadNpz(fixture('kde_ref_tiny_seed42_D2.npz'));
  nld = await loadNpz(fixture('nld_clusterless_decoder_inputs.npz'));
});

/** every array and shape the engine reads, compared bit for bit */
function expectSameArrays(a: Dataset, b: Dataset): void {
  expect(a.positionDims).toBe(b.positionDims);
  expect(a.positionTime).toEqual(b.positionTime);
  expect(a.position).toEqual(b.position);
  expect(a.time).toEqual(b.time);
  expect(a.decodingPositionTime).toEqual(b.decodingPositionTime);
  expect(a.decodingPosition).toEqual(b.decodingPosition);
  expect(a.placeBinCenters).toEqual(b.placeBinCenters);
  expect(a.params).toEqual(b.params);
  expect(a.electrodes.length).toBe(b.electrodes.length);
  a.electrodes.forEach((e, i) => {
    const o = b.electrodes[i]!;
    expect(e.nFeatures).toBe(o.nFeatures);
    expect(e.encodingSpikeTimes).toEqual(o.encodingSpikeTimes);
    expect(e.encodingFeatures).toEqual(o.encodingFeatures);
    expect(e.decodingSpikeTimes).toEqual(o.decodingSpikeTimes);
    expect(e.decodingFeatures).toEqual(o.decodingFeatures);
  });
}

/** the recipe for a file written from the tiny fixture: separate decoding spikes, bins and grid from /scratch */
function tinyRecipe(path: string): NwbRecipe {
  return {
    format: RECIPE_FORMAT,
    files: [path],
    position: { file: 0, path: '/processing/behavior/position/series' },
    decodingPosition: { file: 0, path: '/scratch/decoding_position/series' },
    electrodes: tiny.electrodes.map((e, i) => ({
      name: e.name,
      encoding: { kind: 'units', file: 0, path: '/processing/ecephys/marks', rows: [i], column: 'spike_waveform_features' },
      decoding: { kind: 'units', file: 0, path: '/processing/ecephys/decoding_marks', rows: [i], column: 'spike_waveform_features' },
    })),
    bins: { kind: 'dataset', file: 0, path: '/scratch/layout/time' },
    grid: { kind: 'dataset', file: 0, centers: '/scratch/layout/place_bin_centers' },
    params: tiny.params,
  };
}

describe('NWB built from the tiny fixture', () => {
  it('imports the same arrays as the npz and gives identical likelihoods on the engine', async () => {
    const path = join(dir, 'tiny.nwb');
    await writeNwb(tiny, path, { layout: 'ragged', extras: true });
    const fromNwb = await loadNwb([path], tinyRecipe(path));
    expectSameArrays(fromNwb, tiny);
    await initBackend('wasm');
    const run = async (d: Dataset) => (await predictNonlocal(await fitEncodingModel(d), d, 'reference', { blockSize: 100 })).logLikelihood;
    const [a, b] = [await run(fromNwb), await run(tiny)];
    expect(a.length).toBe(50 * 100);
    expect(a).toEqual(b);
  });

  it('never reads a virtual dataset (HDF5 would open the files its values lie in): the scan names it, a load is refused', async () => {
    // the tiny fixture written as above, its position data then made a virtual dataset over
    // position_elsewhere.h5:/data (h5py's create_virtual_dataset); read, it gave the fill value 0 silently
    const path = fixture('nwb_virtual_position.nwb');
    const r = await inspectNwb([path]);
    expect(r.scans[0]!.problems).toContainEqual(expect.stringMatching(
      /'\/processing\/behavior\/position\/series\/data' is a virtual dataset whose values lie in position_elsewhere\.h5: it is not read/,
    ));
    expect(r.scans[0]!.position.map((c) => c.path)).toEqual(['/scratch/decoding_position/series']);
    await expect(loadNwb([path], tinyRecipe(path))).rejects.toMatchObject({
      code: 'E001', message: expect.stringMatching(/position series .* not found .* It was left out: .*virtual dataset whose values lie in position_elsewhere\.h5/),
    });
  });

  it('maps automatically by rank: the Position container under /processing/behavior beats /scratch', async () => {
    const path = join(dir, 'tiny-auto.nwb');
    await writeNwb(tiny, path, { layout: 'ragged' });
    const r = await inspectNwb([path]);
    expect(r.scans[0]!.position.map((c) => [c.path, c.rank])).toEqual([['/processing/behavior/position/series', 1], ['/scratch/decoding_position/series', 2]]);
    expect(r.recipe!.position.path).toBe('/processing/behavior/position/series');
    // both mark tables are candidates: without a recipe every row of both becomes an electrode
    expect(r.recipe!.electrodes.map((e) => e.name)).toEqual(['decoding_marks[0]', 'decoding_marks[1]', 'decoding_marks[2]', 'decoding_marks[3]', 'marks[0]', 'marks[1]', 'marks[2]', 'marks[3]']);
  });

  it('reports an ambiguous position choice and a series with too many columns', async () => {
    const path = join(dir, 'two-leds.nwb');
    await writeNwb(nld, path, { layout: 'featureExtraction' });
    const { h5Library } = await import('./h5');
    const lib = await h5Library();
    const f = new lib.File(path, 'a');
    const g = (f.get('/processing/behavior/position') as import('h5wasm/node').Group).create_group('led1');
    g.create_attribute('neurodata_type', 'SpatialSeries');
    g.create_dataset({ name: 'data', data: new Float64Array(30), shape: [10, 3], dtype: '<d' });
    g.create_dataset({ name: 'timestamps', data: Float64Array.from({ length: 10 }, (_, i) => i), dtype: '<d' });
    f.close();
    const r = await inspectNwb([path]);
    expect(r.findings.find((x) => x.code === 'E001')?.message).toMatch(/Several position series could be used: \/processing\/behavior\/position\/led1 \(10, 3\), \/processing\/behavior\/position\/series \(35000, 1\)\. Choose one/);
    const recipe: NwbRecipe = {
      format: RECIPE_FORMAT, files: [path], bins: { kind: 'position' },
      position: { file: 0, path: '/processing/behavior/position/led1' },
      electrodes: [{ encoding: { kind: 'featureExtraction', file: 0, path: '/processing/ecephys/features_0' } }],
    };
    const e = await inspectNwb([path], recipe);
    expect(e.findings.find((x) => x.code === 'E011')).toMatchObject({ key: '/processing/behavior/position/led1/data', fix: 'use the first 2 columns' });
  });
});

describe('NWB built from the nld fixture, marks in every form', () => {
  const layouts: MarkLayout[] = ['ragged', 'featureExtraction', 'spikeEventSeries'];
  for (const layout of layouts) {
    it(`maps ${layout} automatically to the npz's arrays`, async () => {
      const path = join(dir, `nld-${layout}.nwb`);
      await writeNwb(nld, path, { layout });
      const r = await inspectNwb([path]);
      expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
      expect(r.findings.map((f) => f.code)).toContain('I091');
      expectSameArrays(r.dataset!, nld);
      expect(r.recipe!.bins).toEqual({ kind: 'position' });
    });
  }

  it('combines one spyglass file per tetrode (position in the first) on one clock', async () => {
    const paths = nld.electrodes.map((_, e) => join(dir, `tet${e}.nwb`));
    for (let e = 0; e < paths.length; e++) await writeNwb(nld, paths[e]!, { layout: 'spyglass', electrodes: [e], position: e === 0 });
    const r = await inspectNwb(paths);
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expectSameArrays(r.dataset!, nld);
    expect(r.dataset!.electrodes.map((e) => e.name)).toEqual(['tet0', 'tet1', 'tet2', 'tet3']);
    expect(r.recipe!.electrodes[2]!.encoding).toEqual({ kind: 'units', file: 2, path: '/units', rows: [0], column: 'amplitude' });
  });

  it('E032 when the files of one import use different reference times', async () => {
    const paths = [join(dir, 'clock0.nwb'), join(dir, 'clock1.nwb')];
    await writeNwb(nld, paths[0]!, { layout: 'spyglass', electrodes: [0] });
    await writeNwb(nld, paths[1]!, { layout: 'spyglass', electrodes: [1], position: false, referenceTime: '2023-05-01T00:00:00+00:00' });
    const r = await inspectNwb(paths);
    const f = r.findings.find((x) => x.code === 'E032');
    expect(f?.message).toMatch(/timestamps_reference_time values differ \(clock0\.nwb: 2024-01-01T00:00:00\+00:00; clock1\.nwb: 2023-05-01/);
    expect(r.dataset).toBeNull();
  });

  it('E032 when a file\'s spikes do not overlap the position of another file', async () => {
    const shifted: Dataset = { ...nld, electrodes: [{ ...nld.electrodes[1]!, encodingSpikeTimes: nld.electrodes[1]!.encodingSpikeTimes.map((t) => t + 1.6e9) }] };
    const paths = [join(dir, 'span0.nwb'), join(dir, 'span1.nwb')];
    await writeNwb(nld, paths[0]!, { layout: 'spyglass', electrodes: [0] });
    await writeNwb(shifted, paths[1]!, { layout: 'spyglass', electrodes: [0], position: false });
    const r = await inspectNwb(paths);
    expect(r.findings.find((x) => x.code === 'E032')?.message).toMatch(/Spike times of span1\.nwb:\/units \(1\.6e\+9|Spike times of span1\.nwb:\/units \(1600000003/);
  });
});

describe('NWB units and scaling', () => {
  it('applies conversion and converts metres to cm (I072)', async () => {
    const path = join(dir, 'metres.nwb');
    await writeNwb(nld, path, { layout: 'featureExtraction', positionConversion: 0.01, positionUnit: 'meters' });
    const r = await inspectNwb([path]);
    const info = r.findings.find((f) => f.code === 'I072');
    expect(info?.message).toMatch(/is in 'meters' \(conversion 0\.01\); cm = data × 0\.01 × 100/);
    const pos = r.dataset!.position;
    let worst = 0;
    pos.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - nld.position[i]!))));
    expect(worst).toBeLessThan(1e-9);
  });

  it('uniform Δt bins and bins from an explicit edges array', async () => {
    const path = join(dir, 'bins.nwb');
    await writeNwb(tiny, path, { layout: 'ragged', extras: true });
    const uniform = await loadNwb([path], { ...tinyRecipe(path), bins: { kind: 'uniform', stepS: 0.5, start: 0, stop: 10 } });
    expect(uniform.time.length).toBe(21);
    expect(uniform.time[20]).toBe(10);
    const edges = await inspectNwb([path], { ...tinyRecipe(path), bins: { kind: 'dataset', file: 0, path: '/scratch/layout/time', edges: true } });
    expect(edges.dataset!.time).toEqual(tiny.time);
    expect(edges.dataset!.notes.join('\n')).toMatch(/the last row is structurally spike-free/);
  });

  it('names a missing recipe path and a missing column', async () => {
    const path = join(dir, 'tiny-missing.nwb');
    await writeNwb(tiny, path, { layout: 'ragged', extras: true });
    const recipe = tinyRecipe(path);
    recipe.position = { file: 0, path: '/processing/behavior/nope' };
    recipe.electrodes[1]!.encoding = { kind: 'units', file: 0, path: '/processing/ecephys/marks', rows: [1], column: 'amp' };
    const r = await inspectNwb([path], recipe);
    expect(r.findings.find((f) => f.code === 'E001' && f.key === '/processing/behavior/nope')?.message)
      .toMatch(/position series '\/processing\/behavior\/nope' not found in tiny-missing\.nwb \(position candidates: \/processing\/behavior\/position\/series, \/scratch\/decoding_position\/series\)/);
    expect(r.findings.find((f) => f.electrode === 'e1')?.message).toMatch(/has no per-spike column 'amp' aligned with spike_times \(per-spike columns: spike_waveform_features\)/);
  });
});
