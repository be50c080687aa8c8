import { describe, expect, it } from 'vitest';
import { fieldMap, fieldPeak, fieldView } from '../testing/samplePosterior2d';
import { axisEdges, mapCellAt, mapPlotWidth, mapRange, mapRaster, posteriorMapOption } from './posteriorMapOption';
import { positionTrackOption } from './positionTrackOption';
import { stateTrackOption } from './stateTrackOption';

type AnyObj = Record<string, any>;

describe('posteriorMapOption', () => {
  const map = fieldMap({ row: 125, trailRows: 30 });

  it('draws the field in cm, half a cell beyond the outer centres, with the MAP, the true position and its trail over it', () => {
    const o = posteriorMapOption(map) as AnyObj;
    expect([o.xAxis.min, o.xAxis.max, o.yAxis.min, o.yAxis.max]).toEqual([0, 80, 0, 60]);
    expect([o.xAxis.name, o.yAxis.name]).toEqual(['x (cm)', 'y (cm)']);
    expect(o.legend.data).toEqual(['true trajectory', 'true position', 'MAP position']);
    const byName = (n: string): AnyObj => o.series.find((s: AnyObj) => s.name === n);
    const [px, py] = fieldPeak(125);
    expect(byName('MAP position').data).toEqual([[5 + 10 * px, 5 + 10 * py]]);
    expect(byName('true position').data).toEqual([[6 + 10 * px, 6 + 10 * py]]);
    expect(byName('true trajectory').data).toHaveLength(31);
    expect(byName('true trajectory').data.at(-1)).toEqual([6 + 10 * px, 6 + 10 * py]);
    // the colour bar runs from 0 to the row's largest cell
    expect([o.visualMap.min, o.visualMap.max]).toEqual([0, 0.45]);
  });

  it('a MAP of NaN (no spatial mass) draws no marker, and no trail was asked for', () => {
    const o = posteriorMapOption({ ...fieldMap({ row: 3 }), mapPosition: [Number.NaN, Number.NaN] }) as AnyObj;
    expect(o.series.find((s: AnyObj) => s.name === 'MAP position').data).toEqual([]);
    expect(o.series.find((s: AnyObj) => s.name === 'true trajectory').data).toEqual([]);
  });

  it('the raster has a pixel per cell, y up; off-track cells transparent, the peak brightest', () => {
    const r = mapRaster(map, mapRange(map));
    expect([r.width, r.height]).toEqual([8, 6]);
    const [px, py] = fieldPeak(125);
    const alpha = (ix: number, iy: number): number => r.pixels[((6 - 1 - iy) * 8 + ix) * 4 + 3]!;
    const green = (ix: number, iy: number): number => r.pixels[((6 - 1 - iy) * 8 + ix) * 4 + 1]!;
    expect(alpha(0, 0)).toBe(0);
    expect(alpha(px, py)).toBe(255);
    // viridis' top is yellow: the peak has more green than any other cell
    expect(green(px, py)).toBeGreaterThan(green(px === 1 ? 2 : 1, py));
  });

  it('finds the cell under a point, and keeps a centimetre as long across as up', () => {
    expect(axisEdges([5, 15, 25])).toEqual([0, 30]);
    expect(mapCellAt(map, 12, 3)).toMatchObject({ ix: 1, iy: 0 });
    expect(mapCellAt(map, 81, 3)).toBeNull();
    expect(mapPlotWidth(map, 300)).toBe(400);
  });
});

describe('positionTrackOption', () => {
  const view = fieldView({ startRow: 100, endRow: 160 });

  it('x(t) above y(t), the MAP solid and the truth dashed, on the field\'s extent and the state track\'s time axis', () => {
    const o = positionTrackOption(view, { cursor: 12, bands: [[20, 40]] }) as AnyObj;
    expect(o.grid).toHaveLength(2);
    // bounded by the grid's centres, labelled at round values inside
    expect(o.yAxis.map((a: AnyObj) => [a.name, a.min, a.max, a.axisLabel.customValues])).toEqual([['x (cm)', 5, 75, [20, 40, 60]], ['y (cm)', 5, 55, [20, 40]]]);
    const lines = o.series.filter((s: AnyObj) => s.name !== 'cursor');
    expect(lines.map((s: AnyObj) => [s.name, s.yAxisIndex])).toEqual([['MAP position', 0], ['true position', 0], ['MAP position', 1], ['true position', 1]]);
    expect(lines[2].data[7]).toEqual([7, view.mapPositionY![7]]);
    expect(lines[1].lineStyle.type).toBe('dashed');
    const state = stateTrackOption(view, { threshold: 0.8 }) as AnyObj;
    expect([o.grid[1].left, o.grid[1].right, o.xAxis[1].min, o.xAxis[1].max]).toEqual([state.grid.left, state.grid.right, state.xAxis.min, state.xAxis.max]);
    const marks = o.series.filter((s: AnyObj) => s.name === 'cursor');
    expect(marks.map((m: AnyObj) => m.markLine.data)).toEqual([[{ xAxis: 12 }], [{ xAxis: 12 }]]);
    expect(marks[0].markArea.data).toEqual([[{ xAxis: 19.5 }, { xAxis: 39.5 }]]);
  });

  it('no cursor outside the rows shown; an unknown truth is a gap', () => {
    const v = { ...view, truePositionY: view.truePositionY!.map((y, i) => (i === 3 ? Number.NaN : y)) };
    const o = positionTrackOption(v, { cursor: null }) as AnyObj;
    expect(o.series.filter((s: AnyObj) => s.name === 'cursor').map((m: AnyObj) => m.markLine.data)).toEqual([[], []]);
    expect(o.series[3].data[3]).toEqual([3, '-']);
  });

  it('the state track draws the same cursor when given one, and none otherwise', () => {
    const withCursor = stateTrackOption(view, { threshold: 0.8, cursor: 12 }) as AnyObj;
    expect(withCursor.series.at(-1).markLine.data).toEqual([{ xAxis: 12 }]);
    const without = stateTrackOption(view, { threshold: 0.8 }) as AnyObj;
    expect(without.series.map((s: AnyObj) => s.name)).not.toContain('cursor');
  });
});
