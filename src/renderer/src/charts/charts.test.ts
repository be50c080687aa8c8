import { describe, expect, it } from 'vitest';
import type { Comparison } from '../../../shared/api';
import { likelihoodView, report, strategyResult } from '../testing/sampleData';
import { agreementCells, agreementHeatmapOption, agreementLabel } from './agreementHeatmapOption';
import { compareBars, compareOption } from './compareOption';
import { dataPreviewOption, electrodeLabelStep, spikeTickData } from './dataPreviewOption';
import { kernelOption, topKernels } from './kernelOption';
import { colorAt, heatmapRaster, VIRIDIS } from './heatmapRaster';
import { cellAt, colorRange, fractionalIndex, likelihoodHeatmapOption, likelihoodValues, rowRelativeValues } from './likelihoodHeatmapOption';
import { cellTicks, niceTicks, tickDecimals } from './niceTicks';
import { colorForName, escapeHtml } from './palette';
import { hasWarmRepeats, timingBarOption, timingBars } from './timingBarOption';

type AnyObj = Record<string, any>;

describe('timingBarOption', () => {
  const results = [strategyResult('reference', 100), strategyResult('compensated', 50), { ...strategyResult('streaming', 1), status: 'failed' as const, total: undefined }];

  it('gives cold and warm bars per strategy with ± std whiskers', () => {
    expect(timingBars(results, 'total')[0]).toEqual({ strategy: 'reference', coldMs: 200, medianMs: 100, stdMs: 3, ci95: null });
    const opt = timingBarOption(results, 'total') as AnyObj;
    expect(opt.xAxis.data).toEqual(['reference', 'compensated', 'streaming']);
    expect(opt.yAxis.name).toBe('total time (ms)');
    expect(opt.series[0].data).toEqual([200, 100, null]);
    expect(opt.series[1].data).toEqual([100, 50, null]);
    expect(opt.series[2].data).toEqual([[0, 97, 103], [1, 47, 53]]);
  });

  it('draws the median\'s 95 % interval as the whisker where the report has one', () => {
    const withCi = [strategyResult('reference', 100, { total: { ...strategyResult('reference', 100).total!, ci95: [92, 111] } })];
    const opt = timingBarOption(withCi, 'total') as AnyObj;
    expect(opt.series[2].data).toEqual([[0, 92, 111]]);
    expect(opt.series[2].name).toBe('95 % CI of the median');
  });

  it('knows a run whose strategies ran once (a decode) from one with timed repeats', () => {
    expect(hasWarmRepeats(results)).toBe(true);
    const once = results.map((r) => (r.total ? { ...r, total: { ...r.total, n: 0, samplesMs: [] } } : r));
    expect(hasWarmRepeats(once)).toBe(false);
    expect(hasWarmRepeats([])).toBe(false);
  });

  it('draws a whisker on the warm bar', () => {
    const opt = timingBarOption(results, 'decode') as AnyObj;
    const api = { value: (i: number) => [0, 97, 103][i], coord: ([x, y]: number[]) => [x! * 100 + 50, 200 - y!], size: () => [100, 0] };
    const g = opt.series[2].renderItem({}, api);
    expect(g.type).toBe('group');
    const stem = g.children[0].shape;
    expect(stem.x1).toBeGreaterThan(50);
    expect(stem.x1).toBeLessThan(100);
    expect([stem.y1, stem.y2]).toEqual([103, 97]);
  });
});

describe('kernelOption', () => {
  it('ranks kernels over all strategies and gives one bar series per strategy', () => {
    const results = [strategyResult('reference', 100), strategyResult('compensated', 50, { kernels: [{ name: 'Max', calls: 1, totalMs: 200, bytesAdded: 0 }] })];
    expect(topKernels(results)).toEqual(['Max', 'MatMul', 'Exp']);
    expect(topKernels(results, 1)).toEqual(['Max']);
    const opt = kernelOption(results) as AnyObj;
    expect(opt.yAxis.data).toEqual(['Max', 'MatMul', 'Exp']);
    expect(opt.series.map((s: AnyObj) => s.name)).toEqual(['reference', 'compensated']);
    expect(opt.series[0].data).toEqual([null, { value: 50, calls: 10 }, { value: 20, calls: 10 }]);
    expect(opt.series[1].data[0]).toEqual({ value: 200, calls: 1 });
    expect(opt.xAxis.name).toBe('kernel time (ms)');
  });
});

describe('agreementHeatmapOption', () => {
  const m = report().agreementMatrix!;

  it('shows differences as log10 and agreement in percent', () => {
    const diffs = agreementCells(m, 'maxAbsDiff');
    expect(diffs).toHaveLength(4);
    expect(diffs[1]!.value).toEqual([1, 0, -5]);
    expect(diffs[0]!.value[2]).toBe(-12);
    expect(agreementCells(m, 'argmaxAgreement')[1]!.value[2]).toBeCloseTo(98);
  });

  it('labels cells with two significant digits so they fit', () => {
    expect(agreementLabel(4.7712e-6, 'maxAbsDiff')).toBe('4.8e-6');
    expect(agreementLabel(0.0123, 'meanAbsDiff')).toBe('1.2e-2');
    expect(agreementLabel(1e-13, 'maxAbsDiff')).toBe('0');
    expect(agreementLabel(1, 'argmaxAgreement')).toBe('100%');
    expect(agreementLabel(0.987, 'argmaxAgreement')).toBe('98.7%');
    const opt = agreementHeatmapOption(m) as AnyObj;
    // the legend sits above the matrix, which takes the panel's width
    expect(opt.visualMap).toMatchObject({ orient: 'horizontal', top: 4 });
    expect(opt.grid.right).toBeLessThan(40);
  });

  it('marks cells that fail allclose', () => {
    const bad = { ...m, allclose: [[true, false], [false, true]] };
    const opt = agreementHeatmapOption(bad) as AnyObj;
    expect(opt.xAxis.data).toEqual(['reference', 'compensated']);
    expect(opt.series[0].type).toBe('heatmap');
    expect(opt.series[0].data[1].label.formatter).toContain('✗');
    expect(opt.series[0].data[0].label.formatter).not.toContain('✗');
    expect(opt.visualMap.type).toBe('piecewise');
    expect(opt.visualMap.pieces[0]).toMatchObject({ lt: -6 });
    expect((agreementHeatmapOption(bad, 'argmaxAgreement') as AnyObj).visualMap.pieces[0]).toMatchObject({ gte: 99.5 });
  });
});

describe('likelihoodHeatmapOption', () => {
  it('maps positions to fractional bin indices', () => {
    expect(fractionalIndex([5, 15, 35], 10)).toBe(0.5);
    expect(fractionalIndex([5, 15, 35], 25)).toBe(1.5);
    expect(fractionalIndex([5, 15, 35], 35)).toBe(2);
    expect(fractionalIndex([5, 15, 35], -100)).toBe(-0.5);
    expect(fractionalIndex([5, 15, 35], NaN)).toBeNull();
  });

  it('colour range from finite values; rows relative to their maximum by default', () => {
    const v = likelihoodView();
    expect(colorRange(v.values)).toEqual([-3, 0]);
    expect(colorRange([NaN])).toEqual([0, 1]);
    expect(rowRelativeValues(v)).toEqual([0, -1, -1.5, 0, -Infinity, 0]);
    expect(likelihoodValues(v, false)).toEqual(v.values);
    expect((likelihoodHeatmapOption(v) as AnyObj).visualMap).toMatchObject({ min: -1.5, max: 0, seriesIndex: [], text: ['0 = row max', '-1.5'] });
    expect((likelihoodHeatmapOption(v, { relative: false }) as AnyObj).visualMap).toMatchObject({ min: -3, max: 0 });
  });

  it('reads the cell under a point in cell units', () => {
    const v = likelihoodView();
    expect(cellAt(v, v.values, 1.2, 0.8)).toEqual({ time: 0.1, position: 15, value: -0.5 });
    expect(cellAt(v, v.values, 3, 0)).toBeNull();
    expect(cellAt(v, v.values, -0.6, 0)).toBeNull();
  });

  it('stretches the image over the cells and overlays decoded and true position', () => {
    const opt = likelihoodHeatmapOption(likelihoodView(), { image: 'data:image/png;base64,' }) as AnyObj;
    expect(opt.series.map((s: AnyObj) => s.type)).toEqual(['custom', 'line', 'line']);
    expect(opt.xAxis).toMatchObject({ min: -0.5, max: 2.5 });
    expect(opt.yAxis).toMatchObject({ min: -0.5, max: 1.5 });
    // ticks at round values placed among the cells: time 0, 0.02 … 0.2 s sit at cells 0, 0.2 … 2
    const timeTicks: number[] = opt.xAxis.axisLabel.customValues;
    expect(timeTicks).toHaveLength(11);
    timeTicks.forEach((at, k) => expect(at).toBeCloseTo(k * 0.2));
    expect(opt.xAxis.axisTick.customValues).toEqual(timeTicks);
    // every label carries the step's two decimals: 0.10 beside 0.12, not 0.1 beside 0.12
    expect(timeTicks.map((t) => opt.xAxis.axisLabel.formatter(t))).toEqual(['0.00', '0.02', '0.04', '0.06', '0.08', '0.10', '0.12', '0.14', '0.16', '0.18', '0.20']);
    expect(opt.xAxis.axisLabel.formatter(0.7)).toBe('');
    // bins centred at 5 and 15 cover 0–20: ticks 0, 2 … 20, from the lower edge (cell −0.5) to the upper (1.5)
    const posTicks: number[] = opt.yAxis.axisLabel.customValues;
    expect(posTicks[0]).toBeCloseTo(-0.5);
    expect(posTicks[posTicks.length - 1]).toBeCloseTo(1.5);
    expect(opt.yAxis.axisLabel.formatter(posTicks[posTicks.length - 1])).toBe('20');
    // cell units → pixels: 10 px per unit from the origin
    const api = { coord: ([x, y]: number[]) => [x! * 10 + 100, 200 - y! * 10] };
    const el = opt.series[0].renderItem({ coordSys: { x: 0, y: 0, width: 500, height: 500 } }, api);
    expect(el.type).toBe('image');
    expect(el.style).toMatchObject({ x: 95, y: 185, width: 30, height: 20 });
    expect((likelihoodHeatmapOption(likelihoodView()) as AnyObj).series[0].renderItem({}, api)).toBeNull();
    expect(opt.series[1].name).toBe('decoded position (argmax)');
    expect(opt.series[1].data.map((d: AnyObj) => d.value)).toEqual([[0, 0], [1, 1], [2, 0]]);
    expect(opt.series[2].data[0].value[1]).toBeCloseTo(0.1);
    const noTruth = likelihoodHeatmapOption({ ...likelihoodView(), truePosition: undefined }) as AnyObj;
    expect(noTruth.series).toHaveLength(2);
  });
});

describe('heatmapRaster', () => {
  it('one pixel per cell, time across, highest position on top, −∞ transparent', () => {
    const v = likelihoodView();
    const r = heatmapRaster(v.rows, v.cols, v.values, [-3, 0]);
    expect([r.width, r.height]).toEqual([3, 2]);
    const px = (x: number, y: number) => [...r.pixels.slice((y * r.width + x) * 4, (y * r.width + x) * 4 + 4)];
    // row 0, bin 0 (value 0 = top of the scale) sits bottom-left
    expect(px(0, 1)).toEqual([...colorAt(VIRIDIS, 1), 255]);
    // row 0, bin 1 (value −1) sits top-left
    expect(px(0, 0)).toEqual([...colorAt(VIRIDIS, 170 / 255), 255]);
    // row 2, bin 0 is −∞
    expect(px(2, 1)).toEqual([0, 0, 0, 0]);
  });

  it('interpolates colour stops', () => {
    expect(colorAt(['#000000', '#ffffff'], 0.5)).toEqual([128, 128, 128]);
    expect(colorAt(VIRIDIS, -1)).toEqual([0x44, 0x01, 0x54]);
    expect(colorAt(VIRIDIS, 2)).toEqual([0xfd, 0xe7, 0x25]);
  });
});

describe('compareOption', () => {
  const c: Comparison = {
    a: {} as Comparison['a'], b: {} as Comparison['b'], thresholdPct: 10, regressed: true, verdict: 'regression',
    rows: [
      { metric: 'ref total', a: 100, b: 130, deltaPct: 30, regression: true },
      { metric: 'cmp total', a: 50, b: 45, deltaPct: -10, regression: false },
      { metric: 'new metric', a: null, b: 3, deltaPct: null, regression: false },
    ],
  };
  it('bars per metric with delta, red for regression, threshold lines', () => {
    expect(compareBars(c).map((b) => b.metric)).toEqual(['ref total', 'cmp total']);
    const opt = compareOption(c) as AnyObj;
    expect(opt.series[0].data.map((d: AnyObj) => d.value)).toEqual([30, -10]);
    expect(opt.series[0].data[0].itemStyle.color).not.toBe(opt.series[0].data[1].itemStyle.color);
    const [plus, minus] = opt.series[0].markLine.data;
    expect([plus.xAxis, minus.xAxis]).toEqual([10, -10]);
    // one label, at the top end of its line, away from the 0 tick; the mirrored line has none
    expect(plus.label).toMatchObject({ show: true, position: 'start', formatter: '±10 % threshold' });
    expect(minus.label.show).toBe(false);
  });
});

describe('dataPreviewOption', () => {
  it('draws position over time and a tick row per electrode', () => {
    const preview = { positionTime: [0, 1, 2], position: [0, NaN, 20], spikeTimes: [{ electrode: 'e0', times: [0.5, 1.5] }, { electrode: 'e1', times: [2] }] };
    expect(spikeTickData(preview)).toEqual([[0.5, 0], [1.5, 0], [2, 1]]);
    const opt = dataPreviewOption(preview) as AnyObj;
    expect(opt.series[0].data).toEqual([[0, 0], [1, '-'], [2, 20]]);
    expect(opt.yAxis[1].data).toEqual(['e0', 'e1']);
    expect(opt.series[1].type).toBe('scatter');
    expect(opt.dataZoom[0].xAxisIndex).toEqual([0, 1]);
    expect(opt.series.map((x: AnyObj) => x.name)).toEqual(['encoding position', 'encoding spikes']);
    expect(opt.series[0].markArea).toBeUndefined();
    // the position axis title runs along the axis, clear of the top edge; the slider clear of the bottom
    expect(opt.yAxis[0]).toMatchObject({ name: 'position', nameLocation: 'middle' });
    expect(opt.dataZoom[1].bottom).toBeGreaterThanOrEqual(8);
  });

  it('shades the decoding grid on both plots, labelled with its span', () => {
    const preview = {
      positionTime: [0, 50, 100], position: [0, 50, 100], spikeTimes: [{ electrode: 'e0', times: [1, 60] }],
      decoding: { startS: 0, endS: 20, rows: 100 },
    };
    const opt = dataPreviewOption(preview) as AnyObj;
    expect(opt.series[0].markArea.data).toEqual([[{ xAxis: 0 }, { xAxis: 20 }]]);
    expect(opt.series[0].markArea.label.formatter).toBe('decoding grid 0–20 s (100 rows)');
    expect(opt.series[1].markArea.data).toEqual([[{ xAxis: 0 }, { xAxis: 20 }]]);
    expect(opt.series[1].markArea.label.show).toBe(false);
  });

  it('thins electrode labels so they never overlap', () => {
    expect(electrodeLabelStep(8, 200)).toBe(1);
    expect(electrodeLabelStep(16, 150)).toBe(2);
    expect(electrodeLabelStep(64, 150)).toBe(6);
    const many = { positionTime: [0], position: [0], spikeTimes: Array.from({ length: 16 }, (_, i) => ({ electrode: `e${i}`, times: [0] })) };
    const opt = dataPreviewOption(many) as AnyObj;
    const rowsPx = opt.grid[1].height;
    const shownEvery = opt.yAxis[1].axisLabel.interval + 1;
    // each label gets at least 13 px of rows
    expect((rowsPx / 16) * shownEvery).toBeGreaterThanOrEqual(13);
    // ticks stay inside their row
    expect(opt.series[1].symbolSize[1]).toBeLessThan(rowsPx / 16);
  });
});

describe('niceTicks', () => {
  it('round steps of 1, 2 or 5 times a power of ten inside the range', () => {
    expect(niceTicks(0, 20, 10)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);
    expect(niceTicks(0, 100, 10)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(niceTicks(0.125, 99.875, 8)).toEqual([20, 40, 60, 80]);
    expect(niceTicks(-0.1, 0.3, 4)).toEqual([-0.1, 0, 0.1, 0.2, 0.3]);
    expect(niceTicks(5, 5)).toEqual([5]);
  });

  it('places round values among uneven cells', () => {
    const at = (centers: readonly number[], v: number) => fractionalIndex(centers, v);
    const t = cellTicks([0, 1, 3], at, String, { target: 3, halfCells: true });
    // cells span −0.5 … 4: round ticks 0, 2, 4 at cells 0, 1.5, 2.5
    expect(t.labels).toEqual(['0', '2', '4']);
    expect(t.positions).toEqual([0, 1.5, 2.5]);
    // without the half cells (times of rows): nothing before the first row
    expect(cellTicks([1, 2, 3], at, String, { target: 2 }).labels).toEqual(['1', '2', '3']);
  });

  it('gives one axis one count of decimals', () => {
    expect(tickDecimals([4.3, 4.32, 4.34])).toBe(2);
    expect(tickDecimals([1748, 1748.5, 1749])).toBe(1);
    expect(tickDecimals([0, 20, 40])).toBe(0);
    expect(tickDecimals([1e-7, 2e-7])).toBeNull();
    const at = (centers: readonly number[], v: number) => fractionalIndex(centers, v);
    const t = cellTicks([4.29, 4.3, 4.31, 4.32, 4.33, 4.34, 4.35], at, (v, d) => v.toFixed(d ?? 3), { target: 3 });
    expect(t.labels).toEqual(['4.30', '4.32', '4.34']);
  });
});

describe('palette', () => {
  it('stable colours per name and escaped html', () => {
    expect(colorForName('decode')).toBe(colorForName('decode'));
    expect(escapeHtml(`<a href="x">'&`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;');
  });
});
