import { describe, expect, it } from 'vitest';
import { STRATEGIES } from '../../shared/config';
import { UsageError } from './cliTypes';
import { parseRunFlags, runConfigFromFlags } from './runFlags';

const config = (args: string[]) => runConfigFromFlags(parseRunFlags(args));

describe('run flags', () => {
  it('builds a preset config with every option', () => {
    const c = config([
      '--data', 'preset:medium', '--seed', '7', '--features', '4', '--feature-scale', '150', '--backend', 'cpu',
      '--strategy', 'reference,chunked', '--block-size', '50', '--enc-tile', '128', '--pos-tile', '64', '--repeats', '5',
      '--warmup', '0', '--local', '--save-likelihood', '--no-trace', '--memory-budget-mb', '256',
    ]);
    expect(c).toMatchObject({
      data: { kind: 'preset', name: 'medium', seed: 7, features: 4, featureScale: 150 },
      backend: 'cpu', strategies: ['reference', 'chunked'], blockSize: 50, encTileSize: 128, posTileSize: 64,
      repeats: 5, warmup: 0, local: true, saveLikelihood: true, trace: false, memoryBudgetBytes: 256 * 1024 * 1024,
    });
  });

  it('expands --strategy all and keeps defaults otherwise', () => {
    const c = config(['--data', 'x.npz', '--strategy', 'all']);
    expect(c.strategies).toEqual([...STRATEGIES]);
    expect(c.data).toEqual({ kind: 'file', path: 'x.npz' });
    expect(c.trace).toBe(true);
  });

  it.each([
    [['--data', 'preset:tiny', '--warmup=-1'], '--warmup: expected an integer ≥ 0'],
    [['--data', 'preset:tiny', '--warmup', '-1'], "Option '--warmup' argument is ambiguous"],
    [['--data', 'preset:tiny', '--repeats', '2000'], '--repeats: expected an integer in [1, 1000]'],
    [['--data', 'preset:tiny', '--feature-scale', '0'], '--feature-scale: expected a positive number'],
    [['--data', 'preset:tiny', '--features', '65'], '--features: expected an integer in [1, 64]'],
    [['--data', 'f.npz', '--seed', '1'], '--seed applies to synthetic presets'],
    [['--data', 'preset:tiny', '--strategy', 'reference,nope'], '--strategy: expected one of'],
    [['--data', 'preset:tiny', '--out'], "Option '--out <value>' argument missing"],
  ])('%j is a usage error naming the flag', (args, message) => {
    expect(() => config(args)).toThrow(UsageError);
    expect(() => config(args)).toThrow(message);
  });
});
