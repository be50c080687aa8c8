import { describe, expect, it } from 'vitest';
import { buildStateSpace } from './stateSpace';
import { filterRowWork, posteriorMemoryEstimate, smoothRowWork, transitionBytes, transitionProductWork } from './posteriorWork';

function grid(p: number) {
  return { centers: Float64Array.from({ length: p }, (_, j) => 1 + 2 * j), interior: new Uint8Array(p).fill(1) };
}

describe('posterior work and memory', () => {
  const space = buildStateSpace('detector', grid(500));
  const n = space.nInteriorStateBins;

  it('counts a dense product as N² multiply-adds over the N² float32 matrix, the structured one as its stored values', () => {
    const dense = transitionProductWork(space, 'dense');
    expect(dense.otherFlops).toBe(2 * n * n);
    expect(dense.streamBytes).toBe(4 * n * n);
    const structured = transitionProductWork(space, 'structured');
    const stored = space.transitions.structured.blocks.reduce((sum, b) => sum + ('values' in b ? b.values.length : 0), 0);
    expect(structured.otherFlops).toBeGreaterThanOrEqual(2 * stored);
    expect(structured.otherFlops).toBeLessThan(dense.otherFlops / 10);
    expect(transitionBytes(space, 'dense')).toBe(4 * n * n);
    expect(transitionBytes(space, 'structured')).toBeLessThan(transitionBytes(space, 'dense') / 10);
  });

  it('gives the filter one product and an exp per state bin, the streamed smoother two products', () => {
    const product = transitionProductWork(space, 'structured').otherFlops;
    expect(filterRowWork(space, 'structured').exps).toBe(n);
    expect(filterRowWork(space, 'structured').otherFlops).toBe(product + 5 * n);
    expect(smoothRowWork(space, 'structured').otherFlops).toBe(2 * product + 5 * n);
  });

  it('bounds the memory by the window, not the recording, beyond the per-row evidence', () => {
    const short = posteriorMemoryEstimate(space, 'structured', 1000, 10_000);
    const long = posteriorMemoryEstimate(space, 'structured', 1000, 1_000_000);
    // a hundred times the rows adds only the evidence kept per row (two float32 and a flag)
    expect(long.bytes - short.bytes).toBe(990_000 * 9);
    expect(posteriorMemoryEstimate(space, 'structured', 2000, 10_000).bytes).toBeGreaterThan(short.bytes);
    expect(short.formula).toMatch(/windows of 1000 rows, N = 1002/);
  });
});
