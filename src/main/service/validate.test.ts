import { describe, expect, it } from 'vitest';
import { parseStrategies } from '../../shared/config';
import { absolutePath, dataSource, MAX_AREA_LANES, npzExportOptions, runConfig, spanAreaRequest, spanSearchRequest } from './validate';

const message = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('timeline search and area requests from a client', () => {
  it('passes well-formed requests through', () => {
    expect(spanSearchRequest({ text: 'gemm', fromUs: 0, direction: 'previous' })).toEqual({ text: 'gemm', fromUs: 0, direction: 'previous' });
    expect(spanAreaRequest({ startUs: 1, endUs: 2, lanes: ['engine:1'] })).toEqual({ startUs: 1, endUs: 2, lanes: ['engine:1'] });
  });

  it('names the key that is wrong', () => {
    expect(message(() => spanSearchRequest({ text: '', fromUs: 0, direction: 'next' }))).toMatch(/^request\.text:/);
    expect(message(() => spanSearchRequest({ text: 'x'.repeat(201), fromUs: 0, direction: 'next' }))).toMatch(/^request\.text:/);
    expect(message(() => spanSearchRequest({ text: 'a', fromUs: Number.NaN, direction: 'next' }))).toMatch(/^request\.fromUs:/);
    expect(message(() => spanSearchRequest({ text: 'a', fromUs: 0, direction: 'up' }))).toMatch(/^request\.direction: expected 'next' or 'previous'/);
    expect(message(() => spanSearchRequest(null))).toMatch(/^request:/);
    expect(message(() => spanAreaRequest({ startUs: 5, endUs: 5, lanes: [] }))).toMatch(/^request\.endUs: must be after startUs/);
    expect(message(() => spanAreaRequest({ startUs: 0, endUs: 5, lanes: 'engine:1' }))).toMatch(/^request\.lanes:/);
    expect(message(() => spanAreaRequest({ startUs: 0, endUs: 5, lanes: ['ok', 7] }))).toMatch(/^request\.lanes\[1\]:/);
  });

  it('bounds how many lanes one area may name', () => {
    const lanes = Array.from({ length: MAX_AREA_LANES + 1 }, (_, i) => `engine:${i}`);
    expect(message(() => spanAreaRequest({ startUs: 0, endUs: 5, lanes }))).toMatch(/at most 4096 lane ids/);
  });
});

describe('paths and export options from a client', () => {
  it('takes absolute paths and refuses relative ones, naming them', () => {
    expect(absolutePath('/data/session.nwb', 'dataPath')).toBe('/data/session.nwb');
    for (const relative of ['session.nwb', './session.nwb', '../data/session.nwb', 'data/x.npz']) {
      expect(message(() => absolutePath(relative, 'outPath'))).toBe(`outPath: '${relative}' is a relative path; give an absolute path (for example /data/session.nwb).`);
    }
    expect(message(() => absolutePath('', 'outPath'))).toMatch(/^outPath: expected a non-empty string/);
    expect(message(() => absolutePath(`/${'d'.repeat(4096)}`, 'outPath'))).toMatch(/^outPath: expected a non-empty string of at most 4096/);
    expect(message(() => dataSource({ kind: 'file', path: 'x.npz' }))).toMatch(/^data\.path: 'x\.npz' is a relative path/);
    expect(dataSource({ kind: 'file', path: '/d/x.npz' })).toEqual({ kind: 'file', path: '/d/x.npz' });
    expect(message(() => runConfig({ data: { kind: 'file', path: 'x.npz' } }))).toMatch(/^data\.path: 'x\.npz' is a relative path/);
  });

  it('checks the posterior request of a run config as it arrives from the page or a WebSocket client', () => {
    const data = { kind: 'file', path: '/d/x.npz' };
    expect(runConfig({ data, posterior: { model: 'detector', methods: ['structured'] } }).posterior).toEqual({ model: 'detector', methods: ['structured'] });
    expect(message(() => runConfig({ data, posterior: { model: 'both' } }))).toMatch(/'posterior\.model': expected one of decoder, detector/);
    expect(message(() => runConfig({ data, posterior: { model: 'decoder', strategies: ['fast'] } }))).toMatch(/'posterior\.strategies\[0\]'/);
  });

  it("checks a run config's strategies by the contract's one check, the one the CLI's --strategy passes, with the nearest name", () => {
    const data = { kind: 'file', path: '/d/x.npz' };
    expect(runConfig({ data, strategies: ['auto', 'series'] }).strategies).toEqual(['auto', 'series']);
    const refused = message(() => runConfig({ data, strategies: ['reference', 'compansated'] }));
    expect(refused).toBe(message(() => parseStrategies(['reference', 'compansated'])));
    expect(refused).toMatch(/^run config 'strategies\[1\]': expected one of .*, got "compansated"; did you mean compensated\?$/);
  });

  it('reads exportDataAsNpz options strictly: absent, or { overwrite?: boolean } and nothing else', () => {
    expect(npzExportOptions(undefined)).toEqual({ overwrite: false });
    expect(npzExportOptions({})).toEqual({ overwrite: false });
    expect(npzExportOptions({ overwrite: true })).toEqual({ overwrite: true });
    expect(npzExportOptions({ overwrite: false })).toEqual({ overwrite: false });
    for (const bad of [null, true, 'overwrite', [], { overwrite: 'true' }, { overwrite: 1 }, { overwrite: true, extra: 1 }, { force: true }]) {
      expect(message(() => npzExportOptions(bad)), JSON.stringify(bad)).toBe('options: expected { overwrite?: true | false } and no other keys');
    }
  });
});
