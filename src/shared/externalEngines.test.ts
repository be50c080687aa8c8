import { describe, expect, it } from 'vitest';
import { parseRunConfig } from './config';
import { engineModelOf, engineSlug, isExternalEngineName, OFFERED_ENGINES, parseEngineName, parseEngines, splitCommandWords } from './externalEngines';

describe('engine names', () => {
  it('reads numpy, the NLD variants with and without x64, and commands', () => {
    expect(parseEngineName('numpy')).toEqual({ kind: 'numpy', name: 'numpy' });
    expect(parseEngineName('nld:clusterless_kde_log:x64')).toEqual({ kind: 'nld', name: 'nld:clusterless_kde_log:x64', variant: 'clusterless_kde_log', x64: true });
    expect(parseEngineName("cmd:python3 'my decoder.py' --fast")).toEqual({ kind: 'cmd', name: "cmd:python3 'my decoder.py' --fast", argv: ['python3', 'my decoder.py', '--fast'] });
    for (const name of OFFERED_ENGINES) expect(parseEngineName(name).name).toBe(name);
  });

  it('refuses an unknown engine, variant or precision, an empty command and an unclosed quote, naming the key', () => {
    expect(() => parseEngineName('jax', 'engines[0]')).toThrow(/'engines\[0\]': unknown engine "jax": expected numpy, nld:clusterless_kde/);
    expect(() => parseEngineName('nld:clusterless_gmm')).toThrow(/unknown NLD engine "nld:clusterless_gmm"/);
    expect(() => parseEngineName('nld:clusterless_kde:x32')).toThrow(/optionally followed by :x64/);
    expect(() => parseEngineName('cmd:   ')).toThrow(/needs a command after the colon/);
    expect(() => parseEngineName("cmd:python3 'oops")).toThrow(/unclosed ' quote/);
    expect(() => parseEngineName('x'.repeat(2000))).toThrow(/at most 1000 characters/);
  });

  it('splits a command line as a shell quotes it, with no expansion', () => {
    expect(splitCommandWords(`a  "b \\" c" 'd $HOME' e\\ f ""`)).toEqual(['a', 'b " c', 'd $HOME', 'e f', '']);
  });

  it('keeps a run to eight distinct engines and none with a shard', () => {
    expect(parseEngines(['numpy', 'numpy', 'nld:clusterless_kde'])).toEqual(['numpy', 'nld:clusterless_kde']);
    expect(parseEngines([])).toBeUndefined();
    expect(() => parseEngines(Array.from({ length: 9 }, (_, i) => `cmd:e${i}`))).toThrow(/at most 8/);
    const data = { kind: 'preset', name: 'tiny' };
    expect(parseRunConfig({ data, engines: ['numpy'] }).engines).toEqual(['numpy']);
    expect(() => parseRunConfig({ data, engines: ['numpy'], shard: { index: 0, count: 2 } })).toThrow(/run them without a shard/);
    expect(() => parseRunConfig({ data, engineTimeoutS: 0 })).toThrow(/'engineTimeoutS'/);
  });

  it('tells engine names from strategy names, and gives each a file name', () => {
    expect(['numpy', 'nld:clusterless_kde', 'cmd:x'].every(isExternalEngineName)).toBe(true);
    expect(['nld-dispatch', 'reference', 'auto'].some(isExternalEngineName)).toBe(false);
    expect(engineSlug('nld:clusterless_kde:x64')).toBe('nld-clusterless_kde-x64');
    expect(engineSlug('cmd:/usr/bin/python3 ../../etc/dec.py')).toBe('cmd-python3-dec.py');
    expect(engineSlug('cmd:..')).not.toMatch(/^\./);
  });

  it("names the whole decode of NLD's models, and refuses one the run does not decode itself", () => {
    expect(parseEngineName('nld:decoder')).toEqual({ kind: 'nld-model', name: 'nld:decoder', model: 'decoder', x64: false });
    expect(parseEngineName('nld:detector:x64')).toEqual({ kind: 'nld-model', name: 'nld:detector:x64', model: 'detector', x64: true });
    expect(engineModelOf('nld:detector:x64')).toBe('detector');
    expect(engineModelOf('nld:clusterless_kde')).toBeUndefined();
    expect(engineModelOf('cmd:nld:decoder')).toBeUndefined();
    const data = { kind: 'preset', name: 'tiny' };
    const posterior = (model: string) => ({ model, methods: ['structured'] });
    expect(parseRunConfig({ data, engines: ['nld:decoder'], posterior: posterior('decoder') }).engines).toEqual(['nld:decoder']);
    expect(() => parseRunConfig({ data, engines: ['nld:decoder'] })).toThrow(/'engines\[0\]': nld:decoder decodes the decoder's posterior; the run decodes no posterior: add --model decoder/);
    expect(() => parseRunConfig({ data, engines: ['numpy', 'nld:detector'], posterior: posterior('decoder') })).toThrow(/'engines\[1\]'.*add --model detector/);
  });
});
