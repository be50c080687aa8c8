import { describe, it, expect } from 'vitest';
import { aggregateKernels, KernelAggregator } from './kernelProfile';

const k = (name: string, kernelTimeMs: unknown, bytesAdded = 0) => ({
  name, kernelTimeMs, bytesAdded, totalBytesSnapshot: 0, tensorsAdded: 1, totalTensorsSnapshot: 1,
  inputShapes: [[2, 2]], outputShapes: [[2, 2]], extraInfo: '',
});

describe('aggregateKernels', () => {
  it('sums calls, time and bytes per kernel, largest time first', () => {
    const stats = aggregateKernels([
      k('MatMul', 2.5, 400), k('Exp', 0.5, 100), k('MatMul', 1.5, 400), k('Max', 0.1), k('Exp', 0.25, 100),
    ]);
    expect(stats).toEqual([
      { name: 'MatMul', calls: 2, totalMs: 4, bytesAdded: 800 },
      { name: 'Exp', calls: 2, totalMs: 0.75, bytesAdded: 200 },
      { name: 'Max', calls: 1, totalMs: 0.1, bytesAdded: 0 },
    ]);
  });

  it('counts kernels the backend could not time without adding time', () => {
    const agg = new KernelAggregator();
    agg.add([k('Sum', { error: 'WebGPU timestamp query is not supported' }), k('Sum', 1)]);
    expect(agg.stats()).toEqual([{ name: 'Sum', calls: 2, totalMs: 1, bytesAdded: 0 }]);
    expect(agg.untimedCalls).toBe(1);
  });

  it('keeps its numbers when the profile object is overwritten later', () => {
    const shared = { kernels: [k('Add', 3, 8)] };
    const agg = new KernelAggregator();
    agg.add(shared.kernels);
    shared.kernels[0]!.kernelTimeMs = 100;
    shared.kernels.length = 0;
    agg.add([k('Add', 1, 8)]);
    expect(agg.stats()).toEqual([{ name: 'Add', calls: 2, totalMs: 4, bytesAdded: 16 }]);
  });

  it('skips entries that are not kernels', () => {
    expect(aggregateKernels([null, 3, { kernelTimeMs: 1 }, k('Neg', 1)]).map((s) => s.name)).toEqual(['Neg']);
  });
});
