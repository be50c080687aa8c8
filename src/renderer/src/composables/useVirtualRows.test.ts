import { describe, expect, it } from 'vitest';
import { DEFAULT_ROW_PX, OVERSCAN_ROWS, rowWindow } from './useVirtualRows';

describe('rowWindow', () => {
  it('renders the rows in view and a margin, the spacers making up the rest of the list', () => {
    const w = rowWindow(100_000, 50, 50 * 1000, 500);
    expect(w).toEqual({ first: 1000 - OVERSCAN_ROWS, end: 1010 + OVERSCAN_ROWS, padTopPx: (1000 - OVERSCAN_ROWS) * 50, padBottomPx: (100_000 - 1010 - OVERSCAN_ROWS) * 50 });
    expect(w.padTopPx + (w.end - w.first) * 50 + w.padBottomPx).toBe(100_000 * 50);
  });

  it('ends at the last row when scrolled to the bottom, and renders nothing of an empty list', () => {
    const total = 100_000;
    const w = rowWindow(total, 50, total * 50 - 500, 500);
    expect(w.end).toBe(total);
    expect(w.padBottomPx).toBe(0);
    expect(w.end - w.first).toBe(10 + OVERSCAN_ROWS);
    expect(rowWindow(0, 50, 0, 500)).toEqual({ first: 0, end: 0, padTopPx: 0, padBottomPx: 0 });
  });

  it('stays inside the list when scrolled past its end (the list shrank) or given no row height yet', () => {
    const w = rowWindow(30, 50, 1e6, 500);
    expect([w.first, w.end]).toEqual([30, 30]);
    expect(rowWindow(100, 0, 0, 500).end).toBe(Math.ceil(500 / DEFAULT_ROW_PX) + OVERSCAN_ROWS);
  });
});
