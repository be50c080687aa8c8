import { describe, expect, it } from 'vitest';
import { INSTANT, instantTipText } from '../../../shared/traceInstants';
import { instantAt, type InstantMark } from './drawInstants';
import { scaleOf, xOf } from './timeScale';

describe('pointing at an instant', () => {
  const scale = scaleOf({ startUs: 0, endUs: 1000 }, 100, 800);
  const rowTop = new Map([['engine:e1', 40], ['engine:e2', 80]]);
  const flush: InstantMark = { lane: 'engine:e1', name: INSTANT.subnormalFlush, tsUs: 500 };
  const oom: InstantMark = { lane: 'engine:e1', name: 'allocation failed', tsUs: 501 };
  const other: InstantMark = { lane: 'engine:e2', name: INSTANT.seriesCoverage, tsUs: 500 };

  it('finds the chevron under the pointer on its lane, and nothing beside it', () => {
    const x = xOf(scale, 500);
    expect(instantAt([flush, other], rowTop, scale, x, 42)).toBe(flush);
    expect(instantAt([flush, other], rowTop, scale, x, 82)).toBe(other);
    expect(instantAt([flush, other], rowTop, scale, x + 20, 42)).toBeNull();
    expect(instantAt([flush, other], rowTop, scale, x, 60)).toBeNull();
  });

  it('names a warning drawn over a note at the same place', () => {
    expect(instantAt([flush, oom], rowTop, scale, xOf(scale, 500), 42)).toBe(oom);
  });

  it('says in the tip whether an instant is a routine note or a warning, and what the engine\'s own notes tell', () => {
    expect(instantTipText(INSTANT.subnormalFlush)).toMatch(/^routine note: .*float32/);
    expect(instantTipText(INSTANT.positionKernelNotKept)).toMatch(/^routine note: .*memory budget/);
    expect(instantTipText('some external note')).toBe('routine note: how the run went, not a problem by itself');
    expect(instantTipText('allocation failed')).toMatch(/^warning: /);
    expect(instantTipText('gc', { level: 'error' })).toMatch(/^warning: /);
  });
});
