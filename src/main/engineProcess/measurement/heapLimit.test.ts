import { describe, expect, it } from 'vitest';
import { refuseBeyondHeap } from './heapLimit';

const big = { deviceBytes: 3 * 2 ** 30, hostBytes: 0, formula: 'B·E·P = …', electrode: 'tet06' };

describe('a named strategy against the backend’s heap', () => {
  it('refuses one whose estimate passes 2 GiB on wasm, naming the electrode and what to do', () => {
    expect(() => refuseBeyondHeap('reference', 'wasm', big)).toThrow(/--strategy reference would hold about 9\.00 GiB at once for electrode tet06 \(3\.00 GiB by .*--strategy auto/);
  });

  it("refuses a 1 GiB estimate too: the ops' intermediates take the heap past 2 GiB", () => {
    expect(() => refuseBeyondHeap('compensated', 'wasm', { ...big, deviceBytes: 2 ** 30 })).toThrow(/about 3\.00 GiB/);
  });

  it('lets auto, the dispatch, other backends and estimates that fit through', () => {
    expect(() => refuseBeyondHeap('auto', 'wasm', big)).not.toThrow();
    expect(() => refuseBeyondHeap('nld-dispatch', 'wasm', big)).not.toThrow();
    expect(() => refuseBeyondHeap('reference', 'webgpu', big)).not.toThrow();
    expect(() => refuseBeyondHeap('reference', 'wasm', { ...big, deviceBytes: 600 * 2 ** 20 })).not.toThrow();
  });
});
