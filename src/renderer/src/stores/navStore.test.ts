import { describe, expect, it } from 'vitest';
import { hashOf, routeFromHash, sameRoute, viewFromHash, VIEWS } from './navStore';

describe('routes', () => {
  it('name the view they show: the Decode view is #/decode', () => {
    expect(VIEWS.find((v) => v.label === 'Decode')?.id).toBe('decode');
    expect(hashOf('decode', { run: 'r1', show: 'causal' })).toBe('#/decode?run=r1&show=causal');
    expect(routeFromHash('#/decode?run=r1&show=causal')).toEqual({ view: 'decode', params: { run: 'r1', show: 'causal' } });
  });

  it('open a link or bookmark from before the Decode view had its route\'s name (#/likelihood) on that view, its parameters kept', () => {
    expect(routeFromHash('#/likelihood?run=r1&strategy=compensated')).toEqual({ view: 'decode', params: { run: 'r1', strategy: 'compensated' } });
    expect(viewFromHash('#likelihood')).toBe('decode');
    expect(sameRoute(routeFromHash('#/likelihood?run=r1')!, { view: 'decode', params: { run: 'r1' } })).toBe(true);
  });

  it('refuse a view that does not exist, and drop parameters no link carries', () => {
    expect(routeFromHash('#/nowhere?run=r1')).toBeNull();
    expect(routeFromHash('#/results?run=r1&evil=1')).toEqual({ view: 'results', params: { run: 'r1' } });
  });
});
