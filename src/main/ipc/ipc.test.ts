import { describe, expect, it } from 'vitest';
import { API_METHODS } from '../../shared/api';
import { AppError } from '../../shared/errors';
import { API_ARGS, checkArgs } from '../../shared/apiArgs';
import { createSenderCheck } from './senderCheck';

describe('checkArgs', () => {
  it('has a shape for every API method', () => {
    expect(Object.keys(API_ARGS).sort()).toEqual([...API_METHODS].sort());
  });

  it('refuses wrong arity and wrong basic types with BAD_ARGUMENT', () => {
    expect(() => checkArgs('getRun', ['20250101-000000-abcdef'])).not.toThrow();
    // file paths may be longer than other strings: as long as a run config's data path
    expect(() => checkArgs('scanData', [['/d/a.nwb', `/${'d'.repeat(300)}/b.nwb`]])).not.toThrow();
    expect(() => checkArgs('saveRecipe', [{}, '/d/a.nwb'])).not.toThrow();
    expect(() => checkArgs('exportDataAsNpz', [{ kind: 'file', path: '/d/a.nwb' }, null])).not.toThrow();
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
