import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { setApiForTests } from './apiAccess';
import { sameSource, useDataStore } from './dataStore';
import { useSystemStore } from './systemStore';

describe('useDataStore', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a));

  it('selecting a preset keeps the seed and features and inspects it', async () => {
    const data = useDataStore();
    await data.selectPreset('tiny', { seed: 7 });
    await data.selectPreset('small');
    expect(data.source).toEqual({ kind: 'preset', name: 'small', seed: 7, features: 2, featureScale: 1 });
    expect(api.callsOf('inspectData')).toHaveLength(2);
    expect(data.inspection?.summary?.nElectrodes).toBe(2);
    expect(data.ready).toBe(true);
  });

  it('a file path is trimmed; an empty path is refused with a message', async () => {
    const data = useDataStore();
    await data.selectFile('   ');
    expect(api.callsOf('inspectData')).toHaveLength(0);
    expect(data.error).toMatch(/path/);
    await data.selectFile('  /data/session.npz ');
    expect(data.source).toEqual({ kind: 'file', path: '/data/session.npz' });
  });

  it('browse returns false in web mode (no dialog) and loads the picked path on desktop', async () => {
    const data = useDataStore();
    expect(await data.browse()).toBe(false);
    api.pickDataFile = async () => '/home/me/a.npz';
    expect(await data.browse()).toBe(true);
    expect(api.callsOf('inspectData')[0]!.args[0]).toEqual({ kind: 'file', path: '/home/me/a.npz' });
  });

  it('is not ready when findings hold an error, or when the inspection failed', async () => {
    const data = useDataStore();
    api.inspectData = async (source) => ({ source, summary: null, preview: null, findings: [{ code: 'E020', severity: 'error', message: 'spike_times_0 and features_0 differ in length' }] });
    await data.selectFile('/x.npz');
    expect(data.hasErrors).toBe(true);
    expect(data.ready).toBe(false);
    api.inspectData = async () => {
      throw Object.assign(new Error('file /y.npz not found'), { code: 'NOT_FOUND', location: { hint: 'Check the path.' } });
    };
    await data.selectFile('/y.npz');
    expect(data.error).toBe('file /y.npz not found Check the path.');
    expect(data.inspection).toBeNull();
  });

  it('compares sources by value', () => {
    expect(sameSource({ kind: 'file', path: 'a' }, { kind: 'file', path: 'a' })).toBe(true);
    expect(sameSource({ kind: 'file', path: 'a' }, { kind: 'preset', name: 'tiny', seed: 1, features: 2, featureScale: 1 })).toBe(false);
    expect(sameSource({ kind: 'preset', name: 'tiny', seed: 1, features: 2, featureScale: 1 }, { kind: 'preset', name: 'tiny', seed: 2, features: 2, featureScale: 1 })).toBe(false);
  });
});

describe('useSystemStore', () => {
  beforeEach(() => setActivePinia(createPinia()));
  afterEach(() => setApiForTests(null));

  it('loads info and presets once', async () => {
    const api = new FakeApi();
    setApiForTests(api);
    const system = useSystemStore();
    await Promise.all([system.load(), system.load()]);
    await system.load();
    expect(api.callsOf('getInfo')).toHaveLength(1);
    expect(system.info?.backends).toHaveLength(4);
    expect(system.presets.map((p) => p.name)).toEqual(['tiny', 'small']);
  });

  it('reports a failed load and may retry', async () => {
    const api = new FakeApi();
    api.getInfo = async () => {
      throw new Error('connection refused');
    };
    setApiForTests(api);
    const system = useSystemStore();
    await system.load();
    expect(system.error).toBe('connection refused');
    api.getInfo = new FakeApi().getInfo;
    await system.load();
    expect(system.error).toBeNull();
    expect(system.info?.version).toBe('0.1.0');
  });
});
