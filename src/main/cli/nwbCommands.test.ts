import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../shared/dataset';
import { RECIPE_FORMAT, type NwbRecipe, type NwbScanView } from '../../shared/nwb';
import type { Report } from '../../shared/report';
import { loadNpz, parseNpy } from '../data';
import { writeNwb } from '../data/nwb/testing';
import { runCli } from './main';
import { capturedIo } from './testing';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));
const MARKS = '/processing/ecephys/marks';
let dir: string;
let tiny: Dataset;
let nwb: string;

function io() {
  return capturedIo(dir);
}

async function cli(...args: string[]) {
  const t = io();
  const code = await runCli(args, t.io);
  return { code, stdout: t.out(), stderr: t.err() };
}

const twoElectrodes = (path: string): NwbRecipe => ({
  format: RECIPE_FORMAT, files: [path], bins: { kind: 'position' },
  position: { file: 0, path: '/processing/behavior/position/series' },
  electrodes: [0, 1].map((row) => ({ name: `t${row}`, encoding: { kind: 'units', file: 0, path: MARKS, rows: [row], column: 'spike_waveform_features' } })),
  params: { placeBinSize: 10 },
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-cli-nwb-'));
  tiny = await loadNpz(join(fixtures, 'kde_ref_tiny_seed42_D2.npz'));
  nwb = join(dir, 'tiny.nwb');
  await writeNwb(tiny, nwb, { layout: 'ragged', decoding: false });
  await copyFile(join(fixtures, 'pynapple_A8604-211122.nwb'), join(dir, 'pynapple.nwb'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('kde-profiler scan', () => {
  it('prints the candidates and the automatic recipe, and saves it with --save-recipe', async () => {
    const r = await cli('scan', 'tiny.nwb');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\[rank 1\] \/processing\/behavior\/position\/series {2}\(100, 1\) · SpatialSeries · cm · 0–100 s/);
    expect(r.stdout).toContain(`${MARKS}  Units · ${tiny.electrodes.length} rows`);
    expect(r.stdout).toContain('per-spike columns: spike_waveform_features (ragged');
    expect(r.stdout).toContain('recipe (automatic):');
    expect(r.stdout).toMatch(/marks\[0\] +units \/processing\/ecephys\/marks rows 0 column spike_waveform_features/);
    expect(r.stdout).toContain('bins        the position timestamps');
    expect(existsSync(`${nwb}.recipe.json`)).toBe(false);

    const saved = await cli('scan', 'tiny.nwb', '--save-recipe');
    expect(saved.stderr).toContain(`recipe saved: ${nwb}.recipe.json`);
    const again = await cli('scan', 'tiny.nwb', '--json');
    const view = JSON.parse(again.stdout) as NwbScanView;
    expect([view.recipeOrigin, view.savedRecipePath]).toEqual(['saved', `${nwb}.recipe.json`]);
    await rm(`${nwb}.recipe.json`);
  });

  it('exits 2 naming file and path when position and marks are missing; --json still prints the scan', async () => {
    const r = await cli('scan', 'pynapple.nwb', '--save-recipe');
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('recipe: none');
    expect(r.stderr).toContain('pynapple.nwb: no mapping to import it with:');
    expect(r.stderr).toMatch(/E001 pynapple\.nwb: No position found/);
    expect(r.stderr).toMatch(/E030 pynapple\.nwb: No marks found.*\/units has 3 units with 21,354 spike times/);
    expect(r.stderr).toContain("Choose in the app's mapping step and apply, or write a recipe (FILE.recipe.json)");
    expect(r.stderr).toContain('no recipe was saved');
    expect(existsSync(join(dir, 'pynapple.nwb.recipe.json'))).toBe(false);
    const json = await cli('scan', 'pynapple.nwb', '--json');
    expect(json.code).toBe(2);
    expect((JSON.parse(json.stdout) as NwbScanView).scans[0]!.spikeTables[0]!.nSpikes).toBe(21354);
  });

  it('refuses no file, and names a missing one', async () => {
    expect((await cli('scan')).code).toBe(2);
    const r = await cli('scan', 'nope.nwb');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope.nwb does not exist');
  });
});

describe('kde-profiler run and decode with NWB data', () => {
  it('run stops before starting when the mapping is ambiguous or data is missing', async () => {
    const r = await cli('run', '--data', 'pynapple.nwb', '--runs-dir', 'runs');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/kde-profiler run: pynapple\.nwb: no mapping to import it with:\n {2}E001/);
    expect(r.stderr).toContain("See the candidates with 'kde-profiler scan pynapple.nwb'");
    expect(existsSync(join(dir, 'runs'))).toBe(false);
  });

  it('--recipe must map the --data file and be a recipe file', async () => {
    const other = join(dir, 'other.nwb.recipe.json');
    await writeFile(other, JSON.stringify(twoElectrodes(join(dir, 'other.nwb'))));
    const wrong = await cli('run', '--data', 'tiny.nwb', '--recipe', 'other.nwb.recipe.json');
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringContaining('other.nwb.recipe.json maps other.nwb, not tiny.nwb')]);
    expect((await cli('run', '--data', 'tiny.nwb', '--recipe', 'x.json')).stderr).toContain("must be a recipe file named *.recipe.json");
    expect((await cli('run', '--data', 'preset:tiny', '--recipe', 'r.recipe.json')).stderr).toContain('--recipe applies to an NWB/HDF5 file');
    const broken = join(dir, 'broken.recipe.json');
    await writeFile(broken, JSON.stringify({ ...twoElectrodes(nwb), bins: { kind: 'weekly' } }));
    const bad = await cli('run', '--data', 'tiny.nwb', '--recipe', 'broken.recipe.json');
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('recipe bins.kind: expected one of position, uniform, dataset')]);
  });

  it('run profiles the file through the --recipe given; the report carries the dataset scale', async () => {
    const recipe = join(dir, 'run.recipe.json');
    await writeFile(recipe, JSON.stringify(twoElectrodes(nwb)));
    const r = await cli('run', '--data', 'tiny.nwb', '--recipe', 'run.recipe.json', '--strategy', 'reference', '--backend', 'cpu',
      '--repeats', '1', '--warmup', '0', '--runs-dir', 'runs-ok', '--out', 'run-out');
    expect(r.code).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'run-out', 'report.json'), 'utf8')) as Report;
    expect(report.config.data).toEqual({ kind: 'file', path: recipe });
    expect(report.dataset.nElectrodes).toBe(2);
    expect(report.datasetScale).toMatch(/encoding spikes on 2 electrodes/);
    expect(await readFile(join(dir, 'run-out', 'report.md'), 'utf8')).toContain(`Compared with the presets: ${report.datasetScale}.`);
  });

  it('decode reads the file through the --recipe given, over the automatic mapping', async () => {
    const recipe = join(dir, 'two.recipe.json');
    await writeFile(recipe, JSON.stringify(twoElectrodes('tiny.nwb')));
    const r = await cli('decode', '--data', 'tiny.nwb', '--recipe', 'two.recipe.json', '--strategy', 'reference', '--backend', 'cpu', '--out', 'dec');
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^tiny: 2 electrodes/);
    const result = JSON.parse(await readFile(join(dir, 'dec', 'decode.json'), 'utf8')) as { dataset: { nElectrodes: number; nBins: number }; scale: string };
    expect(result.dataset.nElectrodes).toBe(2);
    expect(result.scale).toMatch(/on 2 electrodes/);
    const npy = parseNpy(new Uint8Array(await readFile(join(dir, 'dec', 'likelihood', 'reference.npy'))));
    expect(npy.shape).toEqual([tiny.positionTime.length, result.dataset.nBins]);
  });
});
