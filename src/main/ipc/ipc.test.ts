import { describe, expect, it } from 'vitest';
import { API_METHODS, channelOf, type NpzExportOptions, type ProfilerApi } from '../../shared/api';
import { AppError, deserializeError } from '../../shared/errors';
import { API_ARGS, checkArgs } from '../../shared/apiArgs';
import type { IpcResult } from '../../shared/ipcChannels';
import { registerIpcHandlers, type IpcInvokeEventLike } from './ipcHandlers';
import { createSenderCheck } from './senderCheck';

describe('checkArgs', () => {
  it('has a shape for every API method', () => {
    expect(Object.keys(API_ARGS).sort()).toEqual([...API_METHODS].sort());
  });

  it('refuses wrong arity and wrong basic types with BAD_ARGUMENT', () => {
    expect(() => checkArgs('getRun', ['20250101-000000-abcdef'])).not.toThrow();
    expect(() => checkArgs('getSweep', ['20250101-000000-abcdef'])).not.toThrow();
    expect(() => checkArgs('listSweeps', [])).not.toThrow();
    // file paths may be longer than other strings: as long as a run config's data path
    expect(() => checkArgs('scanData', [['/d/a.nwb', `/${'d'.repeat(300)}/b.nwb`]])).not.toThrow();
    expect(() => checkArgs('saveRecipe', [{}, '/d/a.nwb'])).not.toThrow();
    expect(() => checkArgs('exportDataAsNpz', [{ kind: 'file', path: '/d/a.nwb' }, null])).not.toThrow();
    // the options may be left out; when given, an object with only a boolean overwrite
    for (const options of [undefined, {}, { overwrite: true }, { overwrite: false }, { overwrite: undefined }]) {
      expect(() => checkArgs('exportDataAsNpz', [{ kind: 'file', path: '/d/a.nwb' }, '/d/a.npz', options]), JSON.stringify(options)).not.toThrow();
    }
    const cases: [Parameters<typeof checkArgs>[0], unknown[]][] = [
      ['getRun', []],
      ['getRun', ['a', 'b']],
      ['getRun', [42]],
      ['getRun', ['']],
      ['getRun', ['x'.repeat(101)]],
      ['startRun', [null]],
      ['startRun', [[1, 2]]],
      ['compareRuns', ['a', 'b', Number.NaN]],
      ['compareRuns', ['a', 'b', '5']],
      ['getInfo', [1]],
      ['scanData', [[]]],
      ['scanData', ['/d/a.nwb']],
      ['scanData', [['/d/a.nwb', 7]]],
      ['scanData', [['x'.repeat(4097)]]],
      ['scanData', [Array(257).fill('/d/a.nwb')]],
      ['saveRecipe', [{}, '']],
      ['saveRecipe', [[], '/d/a.nwb']],
      ['exportDataAsNpz', [{ kind: 'file', path: '/d/a.nwb' }]],
      ['exportDataAsNpz', [{ kind: 'file', path: '/d/a.nwb' }, 42]],
      ['exportDataAsNpz', [{ kind: 'file', path: '/d/a.nwb' }, null, null]],
      ['exportDataAsNpz', [{ kind: 'file', path: '/d/a.nwb' }, null, true]],
      ['exportDataAsNpz', [{ kind: 'file', path: '/d/a.nwb' }, null, []]],
      ['exportDataAsNpz', [{ kind: 'file', path: '/d/a.nwb' }, null, { overwrite: 'yes' }]],
      ['exportDataAsNpz', [{ kind: 'file', path: '/d/a.nwb' }, null, { overwrite: true, force: true }]],
      ['exportDataAsNpz', [{ kind: 'file', path: '/d/a.nwb' }, null, { overwrite: true }, {}]],
      ['saveRecipe', [{}, '/d/a.nwb', undefined]],
      // a sweep id names a folder: the transport holds it to the whole rule, not only to a length
      ['getSweep', []],
      ['getSweep', ['../../etc']],
      ['getSweep', ['20250101-000000-abcdef/..']],
      ['getSweep', ['20250101-000000-ABCDEF']],
      ['getSweep', [20250101]],
      ['listSweeps', ['*']],
    ];
    for (const [method, params] of cases) {
      let error: unknown;
      try {
        checkArgs(method, params);
      } catch (e) {
        error = e;
      }
      expect(error, `${method}(${JSON.stringify(params)})`).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('BAD_ARGUMENT');
    }
  });
});

describe('exportDataAsNpz over IPC', () => {
  it('carries the overwrite option to the service and its EXISTS refusal back, code intact', async () => {
    const handlers = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<IpcResult>>();
    const asked: unknown[][] = [];
    const api = {
      exportDataAsNpz: async (...args: unknown[]) => {
        asked.push(args);
        if ((args[2] as NpzExportOptions | undefined)?.overwrite !== true) throw new AppError('EXISTS', '/d/a.npz already exists');
        return { outPath: '/d/a.npz', bytes: 1, nElectrodes: 1, nEncodingSpikes: 1 };
      },
    } as unknown as ProfilerApi;
    registerIpcHandlers({
      ipcMain: { handle: (channel, fn) => void handlers.set(channel, fn), removeHandler: () => undefined },
      api, pickDataFile: async () => null, isTrustedSender: () => true,
    });
    const event = { sender: { id: 1 }, senderFrame: { url: 'file:///app/index.html', parent: null } } as unknown as IpcInvokeEventLike;
    const call = (...args: unknown[]) => handlers.get(channelOf('exportDataAsNpz'))!(event, ...args);
    const refused = await call({ kind: 'preset', name: 'tiny' }, '/d/a.npz');
    if (refused.ok) throw new Error('expected the export to be refused');
    expect(deserializeError(refused.error).code).toBe('EXISTS');
    expect((await call({ kind: 'preset', name: 'tiny' }, '/d/a.npz', { overwrite: true })).ok).toBe(true);
    expect(asked.map((a) => a[2])).toEqual([undefined, { overwrite: true }]);
    expect((await call({ kind: 'preset', name: 'tiny' }, '/d/a.npz', { overwrite: 'yes' })).ok).toBe(false);
    expect(asked).toHaveLength(2);
  });
});

describe('createSenderCheck', () => {
  const fileCheck = createSenderCheck({ rendererUrl: 'file:///app/out/renderer/index.html', windowContentsId: () => 7 });
  const event = (id: number, url: string, parent: unknown = null) => ({ sender: { id }, senderFrame: { url, parent } });

  it('trusts the main frame of the app window showing the app page', () => {
    expect(fileCheck(event(7, 'file:///app/out/renderer/index.html'))).toBe(true);
    expect(fileCheck(event(7, 'file:///app/out/renderer/index.html#/runs'))).toBe(true);
  });

  it('refuses other windows, subframes, other pages, and a missing frame', () => {
    expect(fileCheck(event(8, 'file:///app/out/renderer/index.html'))).toBe(false);
    expect(fileCheck(event(7, 'file:///app/out/renderer/index.html', {}))).toBe(false);
    expect(fileCheck(event(7, 'file:///tmp/evil.html'))).toBe(false);
    expect(fileCheck(event(7, 'https://example.com/'))).toBe(false);
    expect(fileCheck({ sender: { id: 7 }, senderFrame: null })).toBe(false);
    expect(createSenderCheck({ rendererUrl: 'file:///a/index.html', windowContentsId: () => null })(event(7, 'file:///a/index.html'))).toBe(false);
  });

  it('trusts the dev server origin under electron-vite dev', () => {
    const dev = createSenderCheck({ rendererUrl: 'http://localhost:5173/', windowContentsId: () => 1 });
    expect(dev(event(1, 'http://localhost:5173/index.html'))).toBe(true);
    expect(dev(event(1, 'http://localhost:5174/'))).toBe(false);
  });
});
