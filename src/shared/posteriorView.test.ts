import { describe, expect, it } from 'vitest';
import { DEFAULT_POSTERIOR_COLS, DEFAULT_POSTERIOR_ROWS, MAX_POSTERIOR_COLS, MAX_POSTERIOR_ROWS, posteriorRequest } from './posteriorView';

const refusedAt = (request: unknown): unknown => {
  try {
    posteriorRequest(request);
  } catch (e) {
    return e;
  }
  return null;
};

describe('posteriorRequest', () => {
  it('fills in the defaults: the whole decode, acausal, at the default size', () => {
    expect(posteriorRequest({})).toEqual({ source: 'acausal', startRow: 0, endRow: undefined, maxRows: DEFAULT_POSTERIOR_ROWS, maxCols: DEFAULT_POSTERIOR_COLS });
    expect(posteriorRequest({ source: 'causal', startRow: 5, endRow: 9, maxRows: 3, maxCols: 2 })).toEqual({ source: 'causal', startRow: 5, endRow: 9, maxRows: 3, maxCols: 2 });
  });

  it.each([
    [null, 'request'],
    [[], 'request'],
    ['acausal', 'request'],
    [{ source: 'smoothed' }, 'request.source'],
    [{ source: 1 }, 'request.source'],
    [{ startRow: -1 }, 'request.startRow'],
    [{ startRow: 1.5 }, 'request.startRow'],
    [{ startRow: 1e13 }, 'request.startRow'],
    [{ endRow: 0 }, 'request.endRow'],
    [{ startRow: 5, endRow: 5 }, 'request.endRow'],
    [{ maxRows: 0 }, 'request.maxRows'],
    [{ maxRows: MAX_POSTERIOR_ROWS + 1 }, 'request.maxRows'],
    [{ maxCols: MAX_POSTERIOR_COLS + 1 }, 'request.maxCols'],
    [{ maxCols: '10' }, 'request.maxCols'],
    [{ relative: true }, 'request.relative'],
  ])('refuses %j, naming %s', (request, key) => {
    expect(refusedAt(request)).toMatchObject({ code: 'BAD_ARGUMENT', location: { key } });
  });

  it('keeps an unknown key short in the message however long it is', () => {
    const e = refusedAt({ ['x'.repeat(10_000)]: 1 }) as Error;
    expect(e.message.length).toBeLessThan(300);
  });
});
