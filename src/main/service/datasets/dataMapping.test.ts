import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import { RECIPE_FORMAT, type NwbRecipe } from '../../../shared/nwb';
import { inspectData, loadNpz } from '../../data';
import { writeNwb } from '../../data/nwb/testing';
import { defaultNpzPath, exportSourceAsNpz, saveRecipeFor, scanDataView, withScale } from './dataMapping';

const MARKS = '/processing/ecephys/marks';
const COLUMN = 'spike_waveform_features';
const fixtures = fileURLToPath(new URL('../../../../test/fixtures/', import.meta.url));
let dir: string;
let nld: Dataset;
let single: string;

async function failure(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kde-mapping-'));
  nld = await loadNpz(join(fixtures, 'nld_clusterless_decoder_inputs.npz'));
  single = join(dir, 'session.nwb');
  await writeNwb(nld, single, { layout: 'ragged' });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const recipeFor = (path: string, extra: Partial<NwbRecipe> = {}): NwbRecipe => ({
  format: RECIPE_FORMAT, files: [path], bins: { kind: 'position' },
  position: { file: 0, path: '/processing/behavior/position/series' },
  electrodes: [0, 1, 2, 3].map((row) => ({ name: `tet${row}`, encoding: { kind: 'units', file: 0, path: MARKS, rows: [row], column: COLUMN } })),
  ...extra,
});

describe('scanData', () => {
  it('lists the candidates and the automatic recipe of an unambiguous file', async () => {
    const v = await scanDataView([single]);
    expect(v.recipeOrigin).toBe('auto');
    expect(v.savedRecipePath).toBeNull();
    expect(v.scans[0]!.position.map((c) => [c.path, c.shape, c.unit])).toEqual([['/processing/behavior/position/series', [nld.positionTime.length, 1], 'cm']]);
    expect(v.scans[0]!.spikeTables[0]).toMatchObject({ path: MARKS, nUnits: 4, featureColumns: [{ name: COLUMN, form: 'ragged' }] });
    expect(v.recipe!.electrodes.map((e) => e.encoding)).toEqual([0, 1, 2, 3].map((row) => ({ kind: 'units', file: 0, path: MARKS, rows: [row], column: COLUMN })));
    expect(v.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('says what is ambiguous across files, naming each file and path', async () => {
    const a = join(dir, 'a.nwb');
    const b = join(dir, 'b.nwb');
    await writeNwb(nld, a, { layout: 'ragged', electrodes: [0, 1] });
    await writeNwb(nld, b, { layout: 'featureExtraction', electrodes: [2, 3] });
    const v = await scanDataView([a, b]);
    expect(v.recipe).toBeNull();
    expect(v.recipeOrigin).toBeNull();
    const e001 = v.findings.find((f) => f.code === 'E001')!;
    expect(e001.message).toContain('a.nwb:/processing/behavior/position/series');
    expect(e001.message).toContain('b.nwb:/processing/behavior/position/series');
    expect(v.findings.find((f) => f.code === 'E030')!.message).toMatch(/several forms \(1 Units table\(s\) with marks, 2 FeatureExtraction\)/);
  });

  it('tells that the real pynapple file has units but no position and no marks', async () => {
    const v = await scanDataView([join(fixtures, 'pynapple_A8604-211122.nwb')]);
    expect(v.recipe).toBeNull();
    expect(v.scans[0]!.spikeTables[0]!.nSpikes).toBe(21354);
    expect(v.findings.map((f) => f.code).sort()).toEqual(['E001', 'E030']);
    expect(v.findings.find((f) => f.code === 'E030')!.message).toMatch(/\/units has 3 units with 21,354 spike times but no per-spike mark column/);
  });

  it('refuses what is not a list of NWB paths, and names a missing file', async () => {
    for (const bad of [[], 'x.nwb', [42], ['a.npz'], ['x'.repeat(5000)], [single, single], Array(300).fill(single)]) {
      expect((await failure(scanDataView(bad))).code, JSON.stringify(bad).slice(0, 40)).toBe('BAD_ARGUMENT');
    }
    const e = await failure(scanDataView([join(dir, 'missing.nwb')]));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toContain('missing.nwb');
  });
});

describe('saveRecipe', () => {
  it('saves next to the data file; scanning the file or the recipe then starts from it, and inspecting the recipe loads it', async () => {
    const path = join(dir, 'saved.nwb');
    await writeNwb(nld, path, { layout: 'ragged' });
    const recipe = recipeFor(path, { electrodes: recipeFor(path).electrodes.slice(0, 2) });
    const { recipePath } = await saveRecipeFor(recipe, path);
    expect(recipePath).toBe(`${path}.recipe.json`);
    // files are kept relative to the recipe, so the folder can move
    expect(JSON.parse(await readFile(recipePath, 'utf8')).files).toEqual(['saved.nwb']);
    for (const asked of [path, recipePath]) {
      const v = await scanDataView([asked]);
      expect(v.recipeOrigin).toBe('saved');
      expect(v.savedRecipePath).toBe(recipePath);
      expect(v.recipe!.electrodes.map((e) => e.name)).toEqual(['tet0', 'tet1']);
    }
    const inspection = withScale(await inspectData({ kind: 'file', path: recipePath }));
    expect(inspection.summary!.nElectrodes).toBe(2);
    expect(inspection.scale).toMatch(/encoding spikes on 2 electrodes/);
  });

  it('checks the recipe and where it goes', async () => {
    const good = recipeFor(single);
    const cases: [unknown, unknown, string, RegExp][] = [
      [{ ...good, format: 'x' }, single, 'BAD_ARGUMENT', /recipe format/],
      [{ ...good, electrodes: [] }, single, 'BAD_ARGUMENT', /electrodes/],
      [good, join(dir, 'session.npz'), 'BAD_ARGUMENT', /not an NWB\/HDF5 file/],
      [good, join(dir, 'other.nwb'), 'BAD_ARGUMENT', /maps session\.nwb but is to be saved for other\.nwb/],
      [recipeFor(join(dir, 'gone.nwb')), join(dir, 'gone.nwb'), 'NOT_FOUND', /gone\.nwb/],
      [good, 42, 'BAD_ARGUMENT', /dataPath/],
    ];
    for (const [recipe, at, code, message] of cases) {
      const e = await failure(saveRecipeFor(recipe, at));
      expect([e.code, e.message]).toEqual([code, expect.stringMatching(message)]);
    }
  });

  it('a broken saved recipe does not stop a new mapping: it is a warning and the automatic one is offered', async () => {
    const path = join(dir, 'broken.nwb');
    await writeNwb(nld, path, { layout: 'ragged' });
    await writeFile(`${path}.recipe.json`, '{ not json');
    const v = await scanDataView([path]);
    expect(v.recipeOrigin).toBe('auto');
    expect(v.findings[0]).toMatchObject({ severity: 'warning', key: 'broken.nwb.recipe.json' });
    expect(v.findings[0]!.message).toMatch(/cannot be used .*not valid JSON.*apply to replace it/);
  });
});

describe('paths from a client', () => {
  it('refuses relative paths everywhere, naming the path and asking for an absolute one', async () => {
    const preset = { kind: 'preset', name: 'tiny', seed: 1, features: 2, featureScale: 1 };
    const cases: [string, () => Promise<unknown>][] = [
      ['session.nwb', () => scanDataView(['session.nwb'])],
      ['data/x.nwb.recipe.json', () => scanDataView(['data/x.nwb.recipe.json'])],
      ['session.nwb', () => saveRecipeFor(recipeFor(single), 'session.nwb')],
      ['out.npz', () => exportSourceAsNpz(preset, 'out.npz')],
      ['./out.npz', () => exportSourceAsNpz(preset, './out.npz', { overwrite: true })],
      ['session.nwb', () => exportSourceAsNpz({ kind: 'file', path: 'session.nwb' }, null)],
    ];
    for (const [path, call] of cases) {
      const e = await failure(call());
      expect([e.code, e.message]).toEqual(['BAD_ARGUMENT', expect.stringContaining(`'${path}' is a relative path; give an absolute path`)]);
    }
    expect(existsSync(join(process.cwd(), 'out.npz'))).toBe(false);
  });

  it('refuses a folder given as a data file, a recipe file or a file to scan', async () => {
    const folder = join(dir, 'folder.nwb');
    await mkdir(folder);
    for (const call of [() => scanDataView([folder]), () => exportSourceAsNpz({ kind: 'file', path: folder }, join(dir, 'from-folder.npz'))]) {
      const e = await failure(call());
      expect([e.code, e.message]).toEqual(['BAD_ARGUMENT', expect.stringContaining(`${folder} is a folder, not a file`)]);
    }
    const e = await failure(saveRecipeFor(recipeFor(folder), folder));
    expect(e.message).toContain(`${folder} is a folder, not a file`);
  });
});

describe('exportDataAsNpz', () => {
  it('writes what a recipe maps next to the data file; the npz reads back to the same arrays', async () => {
    const path = join(dir, 'export.nwb');
    await writeNwb(nld, path, { layout: 'featureExtraction' });
    const out = await exportSourceAsNpz({ kind: 'file', path }, null);
    expect(out.outPath).toBe(join(dir, 'export.clusterless.npz'));
    expect(out).toMatchObject({ nElectrodes: 4, nEncodingSpikes: nld.electrodes.reduce((n, e) => n + e.encodingSpikeTimes.length, 0) });
    expect(out.bytes).toBeGreaterThan(0);
    const back = await loadNpz(out.outPath);
    expect(back.positionTime).toEqual(nld.positionTime);
    expect(back.position).toEqual(nld.position);
    expect(back.electrodes.map((e) => e.encodingFeatures)).toEqual(nld.electrodes.map((e) => e.encodingFeatures));
  });

  it('writes a recipe source and a preset to a chosen .npz path', async () => {
    const { recipePath } = await saveRecipeFor(recipeFor(single, { electrodes: recipeFor(single).electrodes.slice(1, 2) }), single);
    const chosen = join(dir, 'chosen.npz');
    const out = await exportSourceAsNpz({ kind: 'file', path: recipePath }, chosen);
    expect(out.outPath).toBe(chosen);
    expect((await loadNpz(chosen)).electrodes.map((e) => e.name)).toEqual(['tet1']);
    const preset = await exportSourceAsNpz({ kind: 'preset', name: 'tiny', seed: 1, features: 2, featureScale: 1 }, join(dir, 'tiny.npz'));
    expect(preset.nElectrodes).toBeGreaterThan(0);
  });

  it('refuses outputs that are not .npz, replace the input, sit in a missing folder, or have no place for a preset', async () => {
    const npzIn = join(fixtures, 'kde_ref_tiny_seed42_D2.npz');
    const cases: [unknown, unknown, string][] = [
      [{ kind: 'file', path: single }, join(dir, 'x.txt'), 'BAD_ARGUMENT'],
      [{ kind: 'file', path: npzIn }, npzIn, 'BAD_ARGUMENT'],
      [{ kind: 'file', path: single }, join(dir, 'no', 'such', 'x.npz'), 'NOT_FOUND'],
      [{ kind: 'preset', name: 'tiny', seed: 1, features: 2, featureScale: 1 }, null, 'BAD_ARGUMENT'],
      [{ kind: 'file', path: join(dir, 'none.nwb') }, null, 'NOT_FOUND'],
      [{ kind: 'disk', path: single }, null, 'BAD_ARGUMENT'],
    ];
    for (const [source, out, code] of cases) expect((await failure(exportSourceAsNpz(source, out))).code, JSON.stringify([source, out])).toBe(code);
    expect(existsSync(join(dir, 'x.txt'))).toBe(false);
  });

  it('fails with the mapping error, writing nothing, when the mapping is ambiguous', async () => {
    const path = join(dir, 'pyn.nwb');
    await writeFile(path, await readFile(join(fixtures, 'pynapple_A8604-211122.nwb')));
    const e = await failure(exportSourceAsNpz({ kind: 'file', path }, null));
    expect(e.code).toMatch(/^E0/);
    expect(e.message).toContain('pyn.nwb');
    expect(existsSync(defaultNpzPath(path))).toBe(false);
  });

  it('refuses to replace an existing .npz unless the call says overwrite, and then replaces it whole', async () => {
    const source = { kind: 'preset', name: 'tiny', seed: 1, features: 2, featureScale: 1 } as const;
    const out = join(dir, 'taken.npz');
    await writeFile(out, 'precious');
    for (const options of [undefined, {}, { overwrite: false }]) {
      const e = await failure(exportSourceAsNpz(source, out, options));
      expect([e.code, e.message]).toEqual(['EXISTS', `${out} already exists: choose another name, or confirm that it may be replaced (overwrite).`]);
    }
    expect(await readFile(out, 'utf8')).toBe('precious');
    const written = await exportSourceAsNpz(source, out, { overwrite: true });
    expect(written.outPath).toBe(out);
    expect((await loadNpz(out)).electrodes).toHaveLength(written.nElectrodes);
    // the default output next to the data file is protected the same way
    const path = join(dir, 'again.nwb');
    await writeNwb(nld, path, { layout: 'ragged' });
    await exportSourceAsNpz({ kind: 'file', path }, null);
    expect((await failure(exportSourceAsNpz({ kind: 'file', path }, null))).code).toBe('EXISTS');
    await exportSourceAsNpz({ kind: 'file', path }, null, { overwrite: true });
    expect((await readdir(dir)).filter((n) => n.includes('.partial'))).toEqual([]);
  });

  it('refuses an output that is a folder, even with overwrite', async () => {
    const out = join(dir, 'folder.npz');
    await mkdir(out);
    const e = await failure(exportSourceAsNpz({ kind: 'preset', name: 'tiny', seed: 1, features: 2, featureScale: 1 }, out, { overwrite: true }));
    expect([e.code, e.message]).toEqual(['BAD_ARGUMENT', `${out} is a folder, not a file: choose another output path.`]);
  });

  it('checks the options strictly: an object with at most overwrite, true or false', async () => {
    const source = { kind: 'preset', name: 'tiny', seed: 1, features: 2, featureScale: 1 } as const;
    for (const options of [null, true, [], 'overwrite', { overwrite: 'yes' }, { overwrite: 1 }, { overwrite: true, force: true }]) {
      const e = await failure(exportSourceAsNpz(source, join(dir, 'opts.npz'), options));
      expect([e.code, e.message], JSON.stringify(options)).toEqual(['BAD_ARGUMENT', expect.stringMatching(/^options: expected \{ overwrite\?/)]);
    }
    expect(existsSync(join(dir, 'opts.npz'))).toBe(false);
  });

  it('names the default output after the data file, never over it', () => {
    expect(defaultNpzPath('/d/s.nwb')).toBe('/d/s.clusterless.npz');
    expect(defaultNpzPath('/d/s.npz')).toBe('/d/s.clusterless.npz');
    expect(defaultNpzPath('/d/S.H5')).toBe('/d/S.clusterless.npz');
  });
});
