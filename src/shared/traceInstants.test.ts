import { describe, expect, it } from 'vitest';
import { instantSeverity } from './traceInstants';

describe('instant severity', () => {
  it("reads the engine's notes as routine, on every electrode", () => {
    for (const name of ['subnormal flush', 'series coverage', 'position-kernel not kept', 'position-kernel recomputed', 'shard wall clock', 'mark']) {
      expect(instantSeverity(name)).toBe('routine');
    }
  });

  it('reads failures by their words, and a severity arg as said', () => {
    expect(instantSeverity('fit failed')).toBe('warning');
    expect(instantSeverity('worker crashed')).toBe('warning');
    expect(instantSeverity('gpu out of memory')).toBe('warning');
    expect(instantSeverity('NaN in likelihood')).toBe('warning');
    expect(instantSeverity('cache note', { severity: 'warning' })).toBe('warning');
    expect(instantSeverity('compile', { level: 'error' })).toBe('warning');
    expect(instantSeverity('fallback failed', { severity: 'info' })).toBe('routine');
  });
});
