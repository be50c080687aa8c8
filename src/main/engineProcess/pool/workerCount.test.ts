import { describe, expect, it } from 'vitest';
import { runWorkers, workerCount } from './workerCount';

const wasm = { name: 'wasm' as const };

describe('the workers a run starts', () => {
  it('is what was asked within the electrodes and the cores', () => {
    expect(runWorkers(2, wasm, 8, 4)).toEqual({ workers: 2 });
    expect(runWorkers(undefined, { name: 'webgpu' }, 8, 4)).toEqual({ workers: 1 });
  });

  it('takes the limit, and says why, when more were asked for than electrodes or cores', () => {
    const cores = runWorkers(64, wasm, 8, 2);
    expect(cores.workers).toBe(2);
    expect(cores.clamped).toBe('--workers 64: this machine has 2 cores, so the run uses 2 workers (more would only share the cores, each with its own backend and copy of the model)');
    const electrodes = runWorkers(16, wasm, 3, 16);
    expect(electrodes.workers).toBe(3);
    expect(electrodes.clamped).toMatch(/^--workers 16: the data has 3 electrodes, so the run uses 3 workers \(more would only share the electrodes/);
  });

  it('keeps the default one per core within the electrodes, without a word', () => {
    expect(runWorkers(undefined, wasm, 2, 16)).toEqual({ workers: 2 });
    expect(workerCount(undefined, wasm)).toBeGreaterThanOrEqual(1);
    expect(runWorkers(4, wasm, 0, 4)).toMatchObject({ workers: 1 });
  });
});
