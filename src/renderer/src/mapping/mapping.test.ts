import { describe, expect, it } from 'vitest';
import { RECIPE_FORMAT, type NwbRecipe, type NwbScanView } from '../../../shared/nwb';
import { ambiguousView, nwbScan, unitsTable } from '../testing/sampleNwb';
import { candidateFacts, chooseColumn, choosePosition, initialMapping, isMappableFile, setGrouped, toRecipe } from '.';

const LED0 = '0:/processing/behavior/position/led_0';
const LED1 = '0:/processing/behavior/position/led_1';

function withRecipe(recipe: NwbRecipe, extra: Partial<NwbScanView> = {}): NwbScanView {
  return { ...ambiguousView(), recipe, recipeOrigin: 'saved', savedRecipePath: '/data/session.nwb.recipe.json', findings: [], ...extra };
}

describe('initialMapping without a recipe', () => {
  it('starts from the best-ranked position with x, y and the first kind of marks, every feature kept', () => {
    const s = initialMapping(ambiguousView());
    expect(s.positionKey).toBe(LED0);
    expect([s.xColumn, s.yColumn]).toEqual([0, 1]);
    expect(s.sources.map((x) => x.kind)).toEqual(['units', 'featureExtraction']);
    const units = s.sources[0]!;
    // 'amplitude' names a mark; 'peak_width' does not
    expect(units.column).toBe('amplitude');
    expect(units.keep).toEqual([true, true, true, true]);
    expect(units.electrodes.map((e) => [e.rows, e.include, e.nSpikes])).toEqual([[[0], true, 100], [[1], true, 200], [[2], true, 300]]);
    expect(s.sources[1]!.electrodes[0]!.include).toBe(false);
    expect(s.sources[1]!.featureLabels).toEqual(['ch0 · amp', 'ch0 · width', 'ch1 · amp', 'ch1 · width']);
  });

  it('turns the choices into a recipe the loader reads: per-row electrodes, position bins, natural columns left implicit', () => {
    const s = initialMapping(ambiguousView());
    const { recipe, problems } = toRecipe(s, ambiguousView().scans);
    expect(problems).toEqual([]);
    expect(recipe).toEqual({
      format: RECIPE_FORMAT,
      files: ['/data/session.nwb'],
      position: { file: 0, path: '/processing/behavior/position/led_0' },
      electrodes: [
        // rows 0 and 1 share tet1: the second gets a unique name
        { name: 'tet1', encoding: { kind: 'units', file: 0, path: '/units', rows: [0], column: 'amplitude' } },
        { name: 'tet1 (2)', encoding: { kind: 'units', file: 0, path: '/units', rows: [1], column: 'amplitude' } },
        { name: 'tet2', encoding: { kind: 'units', file: 0, path: '/units', rows: [2], column: 'amplitude' } },
      ],
      bins: { kind: 'position' },
    });
  });

  it('says what is missing instead of making a recipe', () => {
    const view = ambiguousView();
    const s = initialMapping(view);
    s.positionKey = null;
    for (const e of s.sources[0]!.electrodes) e.include = false;
    s.binsKind = 'uniform';
    s.binStepMs = 0;
    const draft = toRecipe(s, view.scans);
    expect(draft.recipe).toBeNull();
    expect(draft.problems).toEqual([
      'Choose a position series.',
      'Choose at least one electrode (tick its box).',
      'The uniform bin width must be a positive number of milliseconds.',
    ]);
    s.positionKey = LED0;
    s.sources[0]!.electrodes[0]!.include = true;
    s.sources[0]!.keep.fill(false);
    s.binStepMs = 2;
    expect(toRecipe(s, view.scans).problems).toEqual(['/units: keep at least one feature.']);
  });
});

describe('editing the choices', () => {
  it('one dimension, other columns, flip y, no conversion, uniform bins and a feature subset all reach the recipe', () => {
    const view = ambiguousView();
    const s = initialMapping(view);
    choosePosition(s, view.scans, LED1);
    expect([s.xColumn, s.yColumn]).toEqual([0, 1]);
    [s.xColumn, s.yColumn, s.flipY, s.applyConversion, s.toCm] = [1, 0, true, false, false];
    s.sources[0]!.keep[2] = false;
    Object.assign(s, { binsKind: 'uniform', binStepMs: 4, binStart: 10, binStop: 20 });
    const r = toRecipe(s, view.scans).recipe!;
    expect(r.position).toEqual({ file: 0, path: '/processing/behavior/position/led_1', columns: [1, 0], applyConversion: false, toCm: false, flipY: true });
    expect(r.electrodes[0]!.encoding).toMatchObject({ features: [0, 1, 3] });
    expect(r.bins).toEqual({ kind: 'uniform', stepS: 0.004, start: 10, stop: 20 });
    s.yColumn = null;
    expect(toRecipe(s, view.scans).recipe!.position).toEqual({ file: 0, path: '/processing/behavior/position/led_1', columns: [1], applyConversion: false, toCm: false });
    s.yColumn = 1;
    expect(toRecipe(s, view.scans).problems).toEqual(['x and y must be different columns.']);
  });

  it('merges sorted units per electrode group and back', () => {
    const view = ambiguousView();
    const s = initialMapping(view);
    const units = s.sources[0]!;
    expect(units.canGroup).toBe(true);
    setGrouped(units, view.scans, true);
    expect(units.electrodes.map((e) => [e.name, e.rows, e.nSpikes])).toEqual([['tet1', [0, 1], 300], ['tet2', [2], 300]]);
    const r = toRecipe(s, view.scans).recipe!;
    expect(r.electrodes.map((e) => [e.name, e.encoding.kind === 'units' ? e.encoding.rows : null])).toEqual([['tet1', [0, 1]], ['tet2', [2]]]);
    setGrouped(units, view.scans, false);
    expect(units.electrodes).toHaveLength(3);
  });

  it('another marks column starts with all of its features', () => {
    const s = initialMapping(ambiguousView());
    const units = s.sources[0]!;
    units.keep[0] = false;
    chooseColumn(units, 'peak_width');
    expect([units.column, units.keep, units.featureLabels]).toEqual(['peak_width', [true], ['peak_width[0]']]);
    chooseColumn(units, 'nope');
    expect(units.column).toBe('peak_width');
  });
});

describe('initialMapping from a recipe', () => {
  const recipe: NwbRecipe = {
    format: RECIPE_FORMAT, files: ['/data/session.nwb'],
    position: { file: 0, path: '/processing/behavior/position/led_1', columns: [1], toCm: false },
    electrodes: [
      { name: 'front', encoding: { kind: 'units', file: 0, path: '/units', rows: [0, 2], column: 'amplitude', features: [0, 1] } },
      { name: 'fe', encoding: { kind: 'featureExtraction', file: 0, path: '/processing/ecephys/features_0' }, decoding: { kind: 'featureExtraction', file: 0, path: '/scratch/dec' } },
    ],
    bins: { kind: 'uniform', stepS: 0.002 },
    grid: { kind: 'build', placeBinSize: 2 },
    encodingIntervals: [[0, 50]],
  };

  it('shows the recipe as it is and gives it back unchanged', () => {
    const view = withRecipe(recipe);
    const s = initialMapping(view);
    expect(s.positionKey).toBe(LED1);
    expect([s.xColumn, s.yColumn, s.toCm]).toEqual([1, null, false]);
    const units = s.sources[0]!;
    expect(units.keep).toEqual([true, true, false, false]);
    expect(units.electrodes.filter((e) => e.include).map((e) => [e.name, e.rows])).toEqual([['front', [0, 2]]]);
    expect(s.binsKind).toBe('uniform');
    expect(toRecipe(s, view.scans).recipe).toEqual(recipe);
  });

  it('keeps an explicit bins array from the recipe', () => {
    const r: NwbRecipe = { ...recipe, bins: { kind: 'dataset', file: 0, path: '/scratch/time' } };
    const s = initialMapping(withRecipe(r));
    expect(s.binsKind).toBe('dataset');
    expect(toRecipe(s, ambiguousView().scans).recipe!.bins).toEqual({ kind: 'dataset', file: 0, path: '/scratch/time' });
  });
});

describe('wording', () => {
  it('tells the files the mapping step opens', () => {
    expect(['a.nwb', 'B.H5', 'c.hdf5', 'd.nwb.recipe.json', ' e.nwb '].every(isMappableFile)).toBe(true);
    expect(['a.npz', 'recipe.json', 'a.nwb.bak'].some(isMappableFile)).toBe(false);
  });

  it('describes a candidate by shape, unit and conversion, range, rate and NaN share', () => {
    const c = nwbScan().position[0]!;
    expect(candidateFacts(c)).toBe('(3000, 2) · meters × 0.001 · 0–100 s · timestamps · median 30 Hz · NaN 1.5 %');
    expect(candidateFacts({ ...c, shape: [10], unit: undefined, timeRange: null, medianRateHz: null, nanPct: null, time: { kind: 'rate', startingTime: 0, rateHz: 50, n: 10 } }))
      .toBe('(10,) · no unit · time range unknown · 50 Hz from 0 s');
  });

  it('a table without groups cannot be merged per group', () => {
    const view: NwbScanView = { ...ambiguousView(), scans: [nwbScan({ spikeTables: [unitsTable({ unitGroups: [null, null, null] })] })] };
    expect(initialMapping(view).sources[0]!.canGroup).toBe(false);
  });
});
