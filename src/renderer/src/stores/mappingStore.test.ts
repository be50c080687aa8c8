import { describe, expect, it } from 'vitest';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { useDataStore } from './dataStore';
import { useMappingStore } from './mappingStore';

describe('useMappingStore', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a));

  it('scans an NWB file or a recipe, and clears for an npz file or a preset', async () => {
    const m = useMappingStore();
    await m.follow({ kind: 'file', path: '/data/session.nwb' });
    expect(api.callsOf('scanData').map((c) => c.args[0])).toEqual([['/data/session.nwb']]);
    expect(m.state?.positionKey).toBe('0:/processing/behavior/position/led_0');
    expect(m.canApply).toBe(true);
    // the same file again keeps the choices being edited
    m.state!.flipY = true;
    await m.follow({ kind: 'file', path: '/data/session.nwb' });
    expect(api.callsOf('scanData')).toHaveLength(1);
    expect(m.state!.flipY).toBe(true);
    await m.follow({ kind: 'file', path: '/data/other.npz' });
    expect([m.view, m.state]).toEqual([null, null]);
    await m.follow({ kind: 'file', path: '/data/session.nwb.recipe.json' });
    await m.follow({ kind: 'preset', name: 'tiny', seed: 1, features: 2, featureScale: 1 });
    expect(api.callsOf('scanData')).toHaveLength(2);
    expect(m.view).toBeNull();
  });

  it('Apply saves the recipe next to the first file and inspects the recipe, without scanning again', async () => {
    const m = useMappingStore();
    const data = useDataStore();
    await data.selectFile('/data/session.nwb');
    await m.follow(data.source);
    expect(await m.apply()).toBe(true);
    const [recipe, dataPath] = api.callsOf('saveRecipe')[0]!.args as [{ electrodes: unknown[] }, string];
    expect(dataPath).toBe('/data/session.nwb');
    expect(recipe.electrodes).toHaveLength(3);
    expect(m.appliedPath).toBe('/data/session.nwb.recipe.json');
    // the scan's ambiguity is answered: no error left, and the step says the recipe is saved
    expect(m.view!.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect([m.view!.recipeOrigin, m.view!.savedRecipePath]).toEqual(['saved', '/data/session.nwb.recipe.json']);
    expect(data.source).toEqual({ kind: 'file', path: '/data/session.nwb.recipe.json' });
    expect(api.callsOf('inspectData').at(-1)!.args[0]).toEqual({ kind: 'file', path: '/data/session.nwb.recipe.json' });
    await m.follow(data.source);
    expect(api.callsOf('scanData')).toHaveLength(1);
  });

  it('does not save while something is still to choose, and says what', async () => {
    const m = useMappingStore();
    await m.follow({ kind: 'file', path: '/data/session.nwb' });
    m.state!.positionKey = null;
    expect(m.canApply).toBe(false);
    expect(await m.apply()).toBe(false);
    expect(m.error).toBe('Choose a position series.');
    expect(api.callsOf('saveRecipe')).toHaveLength(0);
  });

  it('Export saves changed choices first, then writes from the recipe; unchanged choices are not saved twice', async () => {
    const m = useMappingStore();
    await m.follow({ kind: 'file', path: '/data/session.nwb' });
    const out = await m.exportNpz();
    expect(out?.outPath).toBe('/data/session.clusterless.npz');
    expect(api.callsOf('saveRecipe')).toHaveLength(1);
    expect(api.callsOf('exportDataAsNpz')[0]!.args).toEqual([{ kind: 'file', path: '/data/session.nwb.recipe.json' }, null, { overwrite: false }]);
    m.exportPath = ' /tmp/out.npz ';
    await m.exportNpz();
    expect(api.callsOf('saveRecipe')).toHaveLength(1);
    expect(api.callsOf('exportDataAsNpz')[1]!.args[1]).toBe('/tmp/out.npz');
    m.state!.flipY = true;
    await m.exportNpz();
    expect(api.callsOf('saveRecipe')).toHaveLength(2);
  });

  it('asks before an export replaces a file; "replace it" writes over it, "keep it" writes nothing', async () => {
    const m = useMappingStore();
    await m.follow({ kind: 'file', path: '/data/session.nwb' });
    api.existingFiles.add('/data/session.clusterless.npz');
    expect(await m.exportNpz()).toBeNull();
    expect(m.error).toBeNull();
    expect(m.exported).toBeNull();
    expect(m.replaceQuestion).toEqual({ out: null, message: expect.stringMatching(/^\/data\/session\.clusterless\.npz already exists/) });
    m.keepExisting();
    expect(m.replaceQuestion).toBeNull();
    expect(api.callsOf('exportDataAsNpz')).toHaveLength(1);

    await m.exportNpz();
    const written = await m.replaceExisting();
    expect(written?.outPath).toBe('/data/session.clusterless.npz');
    expect(m.replaceQuestion).toBeNull();
    expect(api.callsOf('exportDataAsNpz').map((c) => c.args.slice(1))).toEqual([
      [null, { overwrite: false }], [null, { overwrite: false }], [null, { overwrite: true }],
    ]);
  });

  it('an answer about one output never replaces another: a changed export path asks again', async () => {
    const m = useMappingStore();
    await m.follow({ kind: 'file', path: '/data/session.nwb' });
    api.existingFiles.add('/tmp/a.npz');
    m.exportPath = '/tmp/a.npz';
    await m.exportNpz();
    expect(m.replaceQuestion?.out).toBe('/tmp/a.npz');
    m.exportPath = '/tmp/b.npz';
    expect(m.replaceQuestion).toBeNull();
    expect(await m.replaceExisting()).toBeNull();
    expect(api.callsOf('exportDataAsNpz')).toHaveLength(1);
    // other failures stay errors, not questions
    api.exportDataAsNpz = async () => {
      throw Object.assign(new Error('/tmp: the folder is not writable'), { code: 'IO' });
    };
    await m.exportNpz();
    expect([m.error, m.replaceQuestion]).toEqual(['/tmp: the folder is not writable', null]);
  });

  it('applies what the form chose, and a position picked starts its columns over', async () => {
    const m = useMappingStore();
    await m.follow({ kind: 'file', path: '/data/session.nwb' });
    m.choose({ yColumn: null, flipY: true, binsKind: 'uniform', binStepMs: 4, binStart: 1.5 });
    expect(m.state).toMatchObject({ yColumn: null, flipY: true, binsKind: 'uniform', binStepMs: 4, binStart: 1.5, binStop: null });
    expect(m.draft?.recipe?.bins).toMatchObject({ kind: 'uniform', stepS: 0.004 });
    m.pickPosition('0:/processing/behavior/position/led_1');
    expect(m.state).toMatchObject({ positionKey: '0:/processing/behavior/position/led_1', xColumn: 0, yColumn: 1, flipY: false });
    m.clear();
    m.choose({ flipY: true });
    m.pickPosition('0:/processing/behavior/position/led_0');
    expect(m.state).toBeNull();
  });

  it('adds and removes files of the same recording, scanning them together', async () => {
    const m = useMappingStore();
    await m.follow({ kind: 'file', path: '/data/a.nwb' });
    await m.addFile('  /data/b.nwb ');
    expect(api.callsOf('scanData').at(-1)!.args[0]).toEqual(['/data/a.nwb', '/data/b.nwb']);
    await m.addFile('/data/a.nwb');
    expect(api.callsOf('scanData')).toHaveLength(2);
    await m.removeFile(0);
    expect(api.callsOf('scanData').at(-1)!.args[0]).toEqual(['/data/b.nwb']);
  });

  it('a failed scan shows the error; an older answer does not overwrite a newer file', async () => {
    const m = useMappingStore();
    api.scanData = async () => {
      throw Object.assign(new Error('/data/x.nwb does not exist or cannot be read: check the path.'), { code: 'NOT_FOUND' });
    };
    await m.follow({ kind: 'file', path: '/data/x.nwb' });
    expect(m.error).toMatch(/x\.nwb does not exist/);
    expect(m.view).toBeNull();
    let release: () => void = () => undefined;
    const fake = new FakeApi();
    api.scanData = async (paths) => {
      await new Promise<void>((r) => (release = r));
      return fake.scanData(paths);
    };
    const slow = m.follow({ kind: 'file', path: '/data/slow.nwb' });
    api.scanData = (paths) => fake.scanData(paths);
    await m.follow({ kind: 'file', path: '/data/fast.nwb' });
    release();
    await slow;
    expect(m.view?.scans[0]!.path).toBe('/data/fast.nwb');
    expect(m.error).toBeNull();
  });
});
