import { describe, expect, it } from 'vitest';
import { DEFAULT_LIKELIHOOD_COLS, DEFAULT_LIKELIHOOD_ROWS, likelihoodRequest, MAX_LIKELIHOOD_COLS, MAX_LIKELIHOOD_ROWS } from './likelihoodRequest';

const refused = (request: unknown, key: string) => {
  let error: unknown;
  try {
    likelihoodRequest(request);
  } catch (e) {
    error = e;
  }
  expect(error).toMatchObject({ code: 'BAD_ARGUMENT', location: { key } });
  return (error as Error).message;
};

describe('likelihoodRequest', () => {
  it('an empty request is the whole decode at the default size, raw', () => {
    expect(likelihoodRequest({})).toEqual({ startRow: 0, endRow: undefined, maxRows: DEFAULT_LIKELIHOOD_ROWS, maxCols: DEFAULT_LIKELIHOOD_COLS, relative: false });
    expect(likelihoodRequest({ startRow: 5, endRow: 6, maxRows: MAX_LIKELIHOOD_ROWS, maxCols: 1, relative: true })).toEqual({
      startRow: 5, endRow: 6, maxRows: MAX_LIKELIHOOD_ROWS, maxCols: 1, relative: true,
    });
  });

  it('refuses bad values, naming the key', () => {
    expect(refused({ startRow: 10, endRow: 10 }, 'request.endRow')).toMatch(/must be after startRow \(10\), got 10/);
    expect(refused({ startRow: -1 }, 'request.startRow')).toMatch(/whole number/);
    expect(refused({ startRow: 1.5 }, 'request.startRow')).toMatch(/got 1\.5/);
    expect(refused({ endRow: Number.NaN }, 'request.endRow')).toMatch(/got null/);
    expect(refused({ maxRows: 0 }, 'request.maxRows')).toMatch(/\[1, 4000\]/);
    expect(refused({ maxRows: MAX_LIKELIHOOD_ROWS + 1 }, 'request.maxRows')).toBeTruthy();
    expect(refused({ maxCols: MAX_LIKELIHOOD_COLS + 1 }, 'request.maxCols')).toBeTruthy();
    expect(refused({ maxCols: '50' }, 'request.maxCols')).toMatch(/got "50"/);
    expect(refused({ relative: 'yes' }, 'request.relative')).toMatch(/true or false/);
    expect(refused({ start: 3 }, 'request.start')).toMatch(/expected one of startRow, endRow/);
    expect(refused(null, 'request')).toMatch(/an empty object shows the whole decode/);
    expect(refused([1, 2], 'request')).toBeTruthy();
  });
});
