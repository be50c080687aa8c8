import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../shared/config';
import { invocationOf } from './engineCommand';

const inputs = (posterior: unknown) => ({
  name: 'nld:detector',
  config: parseRunConfig({ data: { kind: 'preset', name: 'tiny' }, engines: ['nld:detector'], posterior }),
  dataPath: 'data.npz',
  outDir: 'out',
});

describe("an engine's environment", () => {
  it("gives NLD's whole decode the run's model and Local state, and never one left in the environment the run started from", () => {
    const leftOver = { KDE_PROFILER_LOCAL_POSITION_STD: '7', PATH: '/bin' };
    const withStd = invocationOf(inputs({ model: 'detector', parameters: { localPositionStd: 2.5 } }), leftOver);
    expect(withStd.env).toMatchObject({ KDE_PROFILER_MODEL: 'detector', KDE_PROFILER_LOCAL_POSITION_STD: '2.5', PATH: '/bin' });
    expect(withStd.argv.slice(-2)).toEqual(['--model', 'detector']);
    // the run's one-bin Local state: empty, which the adapter reads as NLD's default
    const oneBin = invocationOf(inputs({ model: 'detector' }), leftOver);
    expect(oneBin.env.KDE_PROFILER_LOCAL_POSITION_STD).toBe('');
    const zero = invocationOf(inputs({ model: 'detector', parameters: { localPositionStd: 0 } }), {});
    expect(zero.env.KDE_PROFILER_LOCAL_POSITION_STD).toBe('0');
  });
});
