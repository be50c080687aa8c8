import { describe, expect, it } from 'vitest';
import { DEFAULT_MAP_SIDE, MAX_MAP_SIDE, MAX_TRAIL_ROWS, posteriorMapRequest } from './posteriorViewMap';

const refusedAt = (request: unknown): unknown => {
  try {
    posteriorMapRequest(request);
  } catch (e) {
    return e;
  }
  return null;
};

describe('posteriorMapRequest', () => {
  it('fills in the defaults: acausal, the default size, no trail', () => {
    expect(posteriorMapRequest({ row: 0 })).toEqual({ row: 0, source: 'acausal', maxSide: DEFAULT_MAP_SIDE, trailRows: 0 });
    expect(posteriorMapRequest({ row: 7, source: 'causal', maxSide: 3, trailRows: 50 })).toEqual({ row: 7, source: 'causal', maxSide: 3, trailRows: 50 });
  });

  it.each([
    [null, 'request'],
    [[1], 'request'],
    [7, 'request'],
    [{}, 'request.row'],
    [{ row: '3' }, 'request.row'],
    [{ row: -1 }, 'request.row'],
    [{ row: 0.5 }, 'request.row'],
    [{ row: 1e13 }, 'request.row'],
    [{ row: 1, source: 'smoothed' }, 'request.source'],
    [{ row: 1, maxSide: 0 }, 'request.maxSide'],
    [{ row: 1, maxSide: MAX_MAP_SIDE + 1 }, 'request.maxSide'],
    [{ row: 1, trailRows: MAX_TRAIL_ROWS + 1 }, 'request.trailRows'],
    [{ row: 1, startRow: 0 }, 'request.startRow'],
  ])('refuses %j, naming %s', (request, key) => {
    expect(refusedAt(request)).toMatchObject({ code: 'BAD_ARGUMENT', location: { key } });
  });

  it('keeps an unknown key short in the message however long it is', () => {
    const e = refusedAt({ row: 1, ['y'.repeat(10_000)]: 1 }) as Error;
    expect(e.message.length).toBeLessThan(300);
  });
});
