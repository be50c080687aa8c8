import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../../shared/dataset';
import { writeClusterlessNpz } from '../writers';
import { loadDataset } from '../index';
import { loadNpz } from '../clusterlessNpz';
import { loadNwb } from './loadNwb';
import { loadRecipe, parseRecipe, RECIPE_FORMAT, recipePathFor, saveRecipe, type NwbRecipe } from './recipe';
import { writeNwb } from './testing';

const fixture = (name: string) => fileURLToPath(new URL(`../../../../test/fixtures/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'kde-recipe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let tiny: Dataset;
beforeAll(async () => {
  tiny = await loadNpz(fixture('kde_ref_tiny_seed42_D2.npz'));
});

function recipeFor(path: string): NwbRecipe {
  return {
    format: RECIPE_FORMAT,
    files: [path],
    position: { file: 0, path: '/processing/behavior/position/series' },
    decodingPosition: { file: 0, path: '/scratch/decoding_position/series' },
    electrodes: tiny.electrodes.map((e, i) => ({
      name: e.name,
      encoding: { kind: 'featureExtraction', file: 0, path: `/processing/ecephys/features_${i}` },
      decoding: { kind: 'featureExtraction', file: 0, path: `/processing/ecephys/decoding_features_${i}` },
    })),
    bins: { kind: 'dataset', file: 0, path: '/scratch/layout/time' },
    grid: { kind: 'dataset', file: 0, centers: '/scratch/layout/place_bin_centers' },
    params: tiny.params,
  };
}

function expectSame(a: Dataset, b: Dataset): void {
  for (const k of ['positionTime', 'position', 'time', 'decodingPositionTime', 'decodingPosition', 'placeBinCenters', 'params', 'positionDims'] as const) {
    expect(a[k], k).toEqual(b[k]);
  }
  expect(a.electrodes).toEqual(b.electrodes);
}

describe('recipes', () => {
  it('checks every field and names the first bad one', () => {
    const ok = recipeFor('x.nwb');
    expect(parseRecipe(JSON.parse(JSON.stringify(ok)))).toEqual(ok);
    const bad = (mutate: (r: Record<string, unknown>) => void) => {
      const r = JSON.parse(JSON.stringify(ok)) as Record<string, unknown>;
      mutate(r);
      return () => parseRecipe(r);
    };
    expect(bad((r) => (r.format = 'other'))).toThrow(/recipe format: expected "kde-profiler-nwb-recipe\/1"/);
    expect(bad((r) => (r.files = []))).toThrow(/recipe files: expected a non-empty list/);
    expect(bad((r) => ((r.electrodes as { encoding: { kind: string } }[])[2]!.encoding.kind = 'lfp'))).toThrow(/recipe electrodes\[2\]\.encoding\.kind: expected one of units, featureExtraction, spikeEventSeries, got "lfp"/);
    expect(bad((r) => ((r.position as { columns: number[] }).columns = [0, 1, 2]))).toThrow(/at most 2 columns/);
    expect(bad((r) => ((r.position as { file: number }).file = 3))).toThrow(/recipe position\.file: expected an integer in 0\.\.0, got 3/);
    expect(bad((r) => (r.bins = { kind: 'uniform', stepS: -1 }))).toThrow(/recipe bins\.stepS: expected a positive number/);
    expect(bad((r) => (r.params = { waveformStd: [1, 0] }))).toThrow(/params\.waveformStd\[1\]/);
  });

  it('saves next to the file with relative paths, and a data path picks it up (one-step re-import)', async () => {
    const sub = join(dir, 'session');
    mkdirSync(sub);
    const path = join(sub, 'tiny.nwb');
    await writeNwb(tiny, path, { layout: 'featureExtraction', extras: true });
    // without a recipe the automatic mapping takes both mark sets as electrodes
    expect((await loadDataset({ kind: 'file', path })).electrodes).toHaveLength(8);
    await saveRecipe(recipeFor(path), recipePathFor(path));
    const saved = JSON.parse(readFileSync(recipePathFor(path), 'utf8')) as NwbRecipe;
    expect(saved.files).toEqual(['tiny.nwb']);
    expect((await loadRecipe(recipePathFor(path))).files).toEqual([path]);
    expectSame(await loadDataset({ kind: 'file', path }), tiny);
    expectSame(await loadDataset({ kind: 'file', path: recipePathFor(path) }), tiny);
    expect(readdirSync(sub).sort()).toEqual(['tiny.nwb', 'tiny.nwb.recipe.json']);
  });

  it('a broken recipe is a clean error naming the recipe', async () => {
    const path = join(dir, 'broken.recipe.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, '{"format": "kde-profiler-nwb-recipe/1", "files": ');
    await expect(loadDataset({ kind: 'file', path })).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringMatching(/^broken\.recipe\.json: the recipe is not valid JSON/) });
  });
});

describe('export as clusterless-npz/1', () => {
  it('what was mapped from NWB reads back identically through the npz loader', async () => {
    const path = join(dir, 'export-src.nwb');
    await writeNwb(tiny, path, { layout: 'featureExtraction', extras: true });
    const mapped = await loadNwb([path], recipeFor(path));
    const out = join(dir, 'exported.npz');
    await writeClusterlessNpz(mapped, out);
    const back = await loadNpz(out);
    expectSame(back, mapped);
    expect(back.electrodes.map((e) => e.name)).toEqual(['e0', 'e1', 'e2', 'e3']);
  });

  it('an npz fixture round-trips with its expected outputs, and shared decoding spikes stay shared', async () => {
    const nld = await loadNpz(fixture('nld_clusterless_decoder_inputs.npz'));
    const out = join(dir, 'nld-again.npz');
    await writeClusterlessNpz(nld, out);
    const back = await loadNpz(out);
    expectSame(back, nld);
    expect(back.electrodes[0]!.decodingSpikeTimes).toBe(back.electrodes[0]!.encodingSpikeTimes);
    const out2 = join(dir, 'tiny-again.npz');
    await writeClusterlessNpz(tiny, out2);
    expect((await loadNpz(out2)).expected).toEqual(tiny.expected);
  });

  it('leaves nothing behind when the target cannot be written', async () => {
    const target = join(dir, 'no-such-dir', 'x.npz');
    await expect(writeClusterlessNpz(tiny, target)).rejects.toMatchObject({ code: 'IO' });
    expect(existsSync(join(dir, 'no-such-dir'))).toBe(false);
  });
});
