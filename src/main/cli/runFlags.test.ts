import { describe, expect, it } from 'vitest';
import { parseStrategies, STRATEGIES } from '../../shared/config';
import { UsageError } from './cliTypes';
import { oldPosteriorFlagNote } from './posteriorMethodFlag';
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

  it('reads --repeats auto with --max-time as a stopping rule, and --shard I/N with --shard-by', () => {
    const c = config(['--data', 'preset:tiny', '--repeats', 'auto', '--max-time', '20', '--shard', '2/4', '--shard-by', 'spikes']);
    expect(c.untilStable).toEqual({ relativeCi: 0.05, maxTimeS: 20, maxRepeats: 200 });
    expect(c.repeats).toBe(5);
    expect(c.shard).toEqual({ index: 2, count: 4, by: 'spikes' });
    const plain = config(['--data', 'preset:tiny', '--shard', '0/1']);
    expect(plain.untilStable).toBeUndefined();
    expect(plain.shard).toEqual({ index: 0, count: 1, by: 'round-robin' });
  });

  it.each([
    [['--data', 'preset:tiny', '--shard', '4/4'], '--shard: expected an integer in [0, 3]'],
    [['--data', 'preset:tiny', '--shard', 'x'], '--shard: expected I/N'],
    [['--data', 'preset:tiny', '--shard', '0/2', '--shard-by', 'size'], '--shard-by: expected one of round-robin, spikes'],
    [['--data', 'preset:tiny', '--shard-by', 'spikes'], '--shard-by applies to --shard I/N'],
    [['--data', 'preset:tiny', '--max-time', '5'], '--max-time applies to --repeats auto'],
    [['--data', 'preset:tiny', '--repeats', 'auto', '--max-time', '0'], '--max-time: expected a positive number'],
  ])('refuses %j with a message naming the flag', (args, message) => {
    expect(() => config(args)).toThrow(message);
  });

  it("refuses a --strategy name with the contract's own message, naming the flag and all", () => {
    const contract = (() => {
      try {
        parseStrategies(['reference', 'compansated'], ['all']);
      } catch (e) {
        return (e as Error).message.replace(/^run config '[^']*': /, '');
      }
      return 'no error';
    })();
    expect(contract).toMatch(/or all, got "compansated"; did you mean compensated\?$/);
    expect(() => config(['--data', 'preset:tiny', '--strategy', 'reference,compansated'])).toThrow(new UsageError(`--strategy: ${contract}`));
  });

  it('expands --strategy all and keeps defaults otherwise', () => {
    const c = config(['--data', 'x.npz', '--strategy', 'all']);
    expect(c.strategies).toEqual([...STRATEGIES]);
    expect(c.data).toEqual({ kind: 'file', path: 'x.npz' });
    expect(c.trace).toBe(true);
  });

  it.each([
    [['--data', 'preset:tiny', '--warmup=-1'], '--warmup: expected an integer ≥ 0'],
    [['--data', 'preset:tiny', '--warmup', '-1'], "--warmup: expected an integer ≥ 0, got '-1'"],
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

  it('asks for no posterior unless --model names one, and times both posterior methods by default', () => {
    expect(config(['--data', 'preset:tiny'])).not.toHaveProperty('posterior');
    expect(config(['--data', 'preset:tiny', '--model', 'none'])).not.toHaveProperty('posterior');
    expect(config(['--data', 'preset:tiny', '--model', 'detector']).posterior).toEqual({ model: 'detector', methods: ['dense', 'structured'] });
    expect(config(['--data', 'preset:tiny', '--model', 'decoder', '--posterior-method', 'both']).posterior!.methods).toEqual(['dense', 'structured']);
    expect(config(['--data', 'preset:tiny', '--model', 'decoder', '--posterior-method', 'dense']).posterior).toEqual({ model: 'decoder', methods: ['dense'] });
  });

  it('reads --posterior-strategy, the old name of --posterior-method, and says so in one line', () => {
    const old = parseRunFlags(['--data', 'preset:tiny', '--model', 'decoder', '--posterior-strategy', 'dense']);
    expect(runConfigFromFlags(old).posterior).toEqual({ model: 'decoder', methods: ['dense'] });
    expect(oldPosteriorFlagNote(old)).toBe("note: --posterior-strategy is the old name of --posterior-method (the posterior's method, dense or structured); it still works\n");
    expect(oldPosteriorFlagNote(parseRunFlags(['--data', 'preset:tiny', '--model', 'decoder', '--posterior-method', 'dense']))).toBeUndefined();
    expect(() => config(['--data', 'preset:tiny', '--model', 'decoder', '--posterior-method', 'dense', '--posterior-strategy', 'dense'])).toThrow(
      '--posterior-strategy is the old name of --posterior-method: give --posterior-method alone',
    );
  });

  it('takes the model\'s parameters as decode does, and hands NLD\'s engines the ones they decode with', () => {
    const c = config(['--data', 'preset:tiny', '--model', 'detector', '--movement-var', '4', '--no-spike-rate', '0.5', '--local-position-std', '0']);
    expect(c.posterior).toEqual({ model: 'detector', methods: ['dense', 'structured'], parameters: { movementVar: 4, noSpikeRate: 0.5, localPositionStd: 0 } });
    const rows = [[0.9, 0.1], [0.2, 0.8]];
    expect(config(['--data', 'preset:tiny', '--model', 'decoder', '--discrete-transition', '[[1]]']).posterior!.parameters).toEqual({ discreteTransition: [[1]] });
    expect(() => config(['--data', 'preset:tiny', '--model', 'decoder', '--discrete-transition', JSON.stringify(rows)])).toThrow(/1 × 1/);
    // NLD's detector takes the Local state's std from the run
    const withNld = config(['--data', 'preset:tiny', '--model', 'detector', '--local-position-std', '5', '--engine', 'nld:detector']);
    expect(withNld.posterior!.parameters).toEqual({ localPositionStd: 5 });
    expect(withNld.engines).toEqual(['nld:detector']);
  });

  it.each([
    [['--data', 'preset:tiny', '--model', 'hmm'], '--model hmm: expected decoder, detector or none'],
    [['--data', 'preset:tiny', '--model', 'decoder', '--posterior-strategy', 'sparse'], '--posterior-strategy sparse: expected structured, dense or both'],
    [['--data', 'preset:tiny', '--model', 'decoder', '--posterior-method', 'sparse'], '--posterior-method sparse: expected structured, dense or both'],
    [['--data', 'preset:tiny', '--posterior-method', 'dense'], '--posterior-method needs a posterior: drop it or give --model decoder|detector'],
    [['--data', 'preset:tiny', '--posterior-strategy', 'dense'], '--posterior-strategy needs a posterior: drop it or give --model decoder|detector'],
    [['--data', 'preset:tiny', '--model', 'none', '--posterior-strategy', 'both'], '--posterior-strategy needs a posterior'],
    [['--data', 'preset:tiny', '--model', 'detector', '--shard', '0/2'], '--model: a shard holds only some electrodes'],
    [['--data', 'preset:tiny', '--movement-var', '4'], '--movement-var needs a posterior: drop it or give --model decoder|detector'],
    [['--data', 'preset:tiny', '--model', 'decoder', '--local-position-std', '3'], '--local-position-std: only the detector has a Local state'],
    [['--data', 'preset:tiny', '--model', 'detector', '--movement-var', 'wide'], '--movement-var: expected a number, got "wide"'],
    [['--data', 'preset:tiny', '--model', 'detector', '--no-spike-rate', '-1'], '--no-spike-rate: expected a positive number'],
    [['--data', 'preset:tiny', '--model', 'decoder', '--discrete-transition', '[[0.5]]'], '--discrete-transition: expected a 1 × 1 array'],
    [['--data', 'preset:tiny', '--model', 'detector', '--movement-var', '4', '--engine', 'nld:detector'], "nld:detector decodes with non_local_detector's own --movement-var"],
  ])('refuses the posterior flags %j with a message naming the flag', (args, message) => {
    expect(() => config(args)).toThrow(UsageError);
    expect(() => config(args)).toThrow(message);
  });
});
