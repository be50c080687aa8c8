import { describe, expect, it } from 'vitest';
import type { LikelihoodView } from '../../../shared/api';
import { likelihoodView } from '../testing/sampleData';
import { cellOfRow, likelihoodHeatmapOption, MAX_ROW_MARKS, rowAtCell, rowsOfCell } from './likelihoodHeatmapOption';

type AnyObj = Record<string, any>;

/** rows 1000..2000 of a 20 000-row decode, 300 displayed rows of 3–4 rows each */
const overview: LikelihoodView = { ...likelihoodView({ startRow: 1000, endRow: 2000, maxRows: 300 }, 'decode-1') };

describe('likelihood rows and cells', () => {
  it('a displayed row stands for its block of time rows', () => {
    expect(overview.rowsPerRow).toBeCloseTo(1000 / 300, 12);
    expect(rowsOfCell(overview, 0)).toEqual([1000, 1003]);
    expect(rowsOfCell(overview, 1)).toEqual([1003, 1006]);
    expect(rowsOfCell(overview, 299)).toEqual([1996, 2000]);
    // blocks tile the range
    for (let i = 1; i < 300; i++) expect(rowsOfCell(overview, i)[0]).toBe(rowsOfCell(overview, i - 1)[1]);
  });

  it('rows map to x in cell units and back', () => {
    expect(cellOfRow(overview, 1000)).toBe(-0.5);
    expect(cellOfRow(overview, 2000)).toBeCloseTo(299.5, 9);
    expect(rowAtCell(overview, cellOfRow(overview, 1500))).toBe(1500);
    expect(rowAtCell(overview, -40)).toBe(1000);
    expect(rowAtCell(overview, 1e6)).toBe(2000);
  });
});

describe('likelihoodHeatmapOption marks', () => {
  it('shades the selected rows and lines the window starts inside the view', () => {
    const opt = likelihoodHeatmapOption(overview, { selection: [1200, 1500], rowMarks: [0, 1000, 1400, 1800, 2000, 4000] }) as AnyObj;
    const area = opt.series[0].markArea.data;
    expect(area).toHaveLength(1);
    expect(area[0][0].xAxis).toBeCloseTo(cellOfRow(overview, 1200), 9);
    expect(area[0][1].xAxis).toBeCloseTo(cellOfRow(overview, 1500), 9);
    expect(opt.series[0].markLine.data.map((d: AnyObj) => d.xAxis)).toEqual([cellOfRow(overview, 1400), cellOfRow(overview, 1800)]);
  });

  it('clips a selection to the view, drops one outside it, and drops marks too dense to read', () => {
    const clipped = likelihoodHeatmapOption(overview, { selection: [0, 1100] }) as AnyObj;
    expect(clipped.series[0].markArea.data[0][0].xAxis).toBe(-0.5);
    expect((likelihoodHeatmapOption(overview, { selection: [5000, 6000] }) as AnyObj).series[0].markArea.data).toEqual([]);
    expect((likelihoodHeatmapOption(overview) as AnyObj).series[0].markArea.data).toEqual([]);
    // one row of 1000 is a sliver: drawn 0.6 % of the view wide, around where it is
    const [a, b] = (likelihoodHeatmapOption(overview, { selection: [1500, 1501] }) as AnyObj).series[0].markArea.data[0];
    expect(b.xAxis - a.xAxis).toBeCloseTo(0.006 * 300, 9);
    expect((a.xAxis + b.xAxis) / 2).toBeCloseTo((cellOfRow(overview, 1500) + cellOfRow(overview, 1501)) / 2, 9);
    const dense = Array.from({ length: MAX_ROW_MARKS + 1 }, (_, k) => 1001 + k);
    expect((likelihoodHeatmapOption(overview, { rowMarks: dense }) as AnyObj).series[0].markLine.data).toEqual([]);
  });

  it('takes a colour range given instead of computing one', () => {
    expect((likelihoodHeatmapOption(overview, { range: [-9, 0] }) as AnyObj).visualMap).toMatchObject({ min: -9, max: 0 });
  });
});
