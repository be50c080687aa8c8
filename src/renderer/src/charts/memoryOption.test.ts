import { describe, expect, it } from 'vitest';
import { report, strategyResult } from '../testing/sampleData';
import { binaryLogAxis, memoryBars, memoryEstimateOption } from './memoryEstimateOption';
import { memoryAxisOf, memoryColor, memoryLabel, memoryOption } from './memoryOption';
import { colorForName } from './palette';

type AnyObj = Record<string, any>;
const MB = 1024 * 1024;

describe('memoryOption', () => {
  it('puts MB counters on the left, counts on the right, skips GPU totals, seconds on x', () => {
    const opt = memoryOption([
      { name: 'memory (MB)', key: 'rss', proc: 'engine', points: [[0, 100], [2_000_000, 120]] },
      { name: 'memory (MB)', key: 'external', proc: 'engine', points: [[0, 3]] },
      { name: 'tensors', key: 'count', points: [[0, 5]] },
      { name: 'tensors', key: 'MB', points: [[0, 1]] },
      { name: 'gpu memory (MB)', key: 'total', points: [[0, 80_000]] },
      { name: 'gpu memory (MB)', key: 'used', points: [[0, 300]] },
    ]) as AnyObj;
    const byName = Object.fromEntries(opt.series.map((s: AnyObj) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual(['GPU memory used', 'engine RSS (self-sampled)', 'tensor bytes', 'tensor count']);
    expect(byName['engine RSS (self-sampled)'].data).toEqual([[0, 100], [2, 120]]);
    expect(byName['engine RSS (self-sampled)'].yAxisIndex).toBe(0);
    // the usual series keep distinct colours however many appear
    const colors = [
      'engine RSS (sampled by service)', 'engine RSS (self-sampled)', 'engine JS heap', 'service RSS (self-sampled)', 'service JS heap',
      'tensor bytes', 'tensor count', 'GPU memory used',
    ].map(memoryColor);
    expect(new Set(colors).size).toBe(colors.length);
    expect(byName['engine RSS (self-sampled)'].color).toBe(memoryColor('engine RSS (self-sampled)'));
    expect(memoryColor('something new')).toBe(colorForName('something new'));
    // tensors in a panel of their own, bytes and count on their own scales
    expect(opt.yAxis.map((a: AnyObj) => [a.name, a.gridIndex])).toEqual([['process memory (MB)', 0], ['tensor memory (MB)', 1], ['tensors (count)', 1]]);
    expect([byName['tensor bytes'].xAxisIndex, byName['tensor bytes'].yAxisIndex]).toEqual([1, 1]);
    expect([byName['tensor count'].xAxisIndex, byName['tensor count'].yAxisIndex]).toEqual([1, 2]);
    expect([byName['GPU memory used'].xAxisIndex, byName['GPU memory used'].yAxisIndex]).toEqual([0, 0]);
    // both panels span the same time
    expect(opt.xAxis.map((a: AnyObj) => a.max)).toEqual([2, 2]);
    // a round end past the last sample, however odd its time
    const odd = memoryOption([{ name: 'engine memory (MB)', key: 'rss', proc: 'engine', points: [[0, 1], [2_413_014, 2]] }]) as AnyObj;
    expect(odd.xAxis[0]).toMatchObject({ max: 2.5, interval: 0.5 });
    expect(opt.xAxis[1].name).toBe('time (s)');
    // with the run's length known, the axis ends where the run (and the timeline above) ends
    const run = memoryOption([{ name: 'engine memory (MB)', key: 'rss', proc: 'engine', points: [[0, 1], [2_413_014, 2]] }], 2.6) as AnyObj;
    expect(run.xAxis[0]).toMatchObject({ min: 0, max: 2.6 });
    expect(run.xAxis[0].interval).toBeUndefined();
    const single = memoryOption([{ name: 'engine memory (MB)', key: 'rss', proc: 'engine', points: [[0, 1]] }]) as AnyObj;
    expect(single.grid).toHaveLength(1);
    expect(single.series[0].yAxisIndex).toBe(0);
  });

  it('labels and axes of single counters', () => {
    expect(memoryAxisOf({ name: 'engine memory (MB)', key: 'rss' })).toBe('MB');
    expect(memoryAxisOf({ name: 'something', key: 'other' })).toBeNull();
    expect(memoryLabel({ name: 'engine memory (MB)', key: 'rss', points: [], proc: 'engine' })).toBe('engine RSS (sampled by service)');
    expect(memoryLabel({ name: 'memory (MB)', key: 'heapUsed', points: [], proc: 'service' })).toBe('service JS heap');
    // read back from a finished run: no process, and only the engine samples itself
    expect(memoryLabel({ name: 'memory (MB)', key: 'heapUsed', points: [] })).toBe('engine JS heap');
    expect(memoryLabel({ name: 'trainer rss (MB)', key: 'rss', points: [] })).toBe('trainer RSS');
    expect(memoryLabel({ name: 'nld:clusterless_kde memory (MB)', key: 'rss', points: [], proc: 'external' })).toBe('nld:clusterless_kde RSS (process tree)');
    expect(memoryAxisOf({ name: 'numpy memory (MB)', key: 'rss' })).toBe('MB');
    expect(memoryAxisOf({ name: 'memory (MB)', key: 'arrayBuffers' })).toBeNull();
  });

  it('shows one RSS per process: the outside sample hides the engine\'s own reading', () => {
    const opt = memoryOption([
      { name: 'engine memory (MB)', key: 'rss', proc: 'engine', points: [[0, 90], [50_000, 95]] },
      { name: 'memory (MB)', key: 'rss', proc: 'engine', points: [[0, 91]] },
      { name: 'memory (MB)', key: 'heapUsed', proc: 'engine', points: [[0, 20]] },
      { name: 'tensors', key: 'MB', proc: 'engine', points: [[0, 0], [10_000, 4]] },
    ]) as AnyObj;
    expect(opt.series.map((x: AnyObj) => x.name)).toEqual(['engine JS heap', 'engine RSS (sampled by service)', 'tensor bytes']);
  });
});

describe('memoryOption with engine workers', () => {
  it('puts each worker\'s tensor bytes on the tensor axis, named as the engine\'s are, and ends the time axis with a rounded label', () => {
    const opt = memoryOption([
      { name: 'engine memory (MB)', key: 'rss', proc: 'engine', points: [[0, 90], [6_000_000, 300]] },
      { name: 'worker 0 tensors', key: 'MB', proc: 'engine', points: [[0, 0], [5_000_000, 0.074]] },
      { name: 'worker 0 tensors', key: 'count', proc: 'engine', points: [[0, 0], [5_000_000, 17]] },
    ], 6.867292497) as AnyObj;
    const byName = Object.fromEntries(opt.series.map((x: AnyObj) => [x.name, x.yAxisIndex]));
    expect(byName).toEqual({ 'engine RSS (sampled by service)': 0, 'worker 0 tensor bytes': 1, 'worker 0 tensor count': 2 });
    expect(opt.xAxis[1].max).toBe(6.867292497);
    expect(opt.xAxis[1].axisLabel.formatter(6.867292497)).toBe('6.87');
    expect(opt.xAxis[1].axisLabel.formatter(2)).toBe('2');
  });
});

describe('memoryEstimateOption', () => {
  it('puts estimate, measured and RSS in MB side by side per strategy', () => {
    const results = report().strategies;
    expect(memoryBars(results)).toEqual({ strategies: ['reference', 'compensated'], estimatedKiB: [8192, 8192], measuredKiB: [6144, 6144], rssKiB: [204800, 204800] });
    const opt = memoryEstimateOption(results) as AnyObj;
    expect(opt.series.map((s: AnyObj) => s.name)).toEqual(['estimated peak (formula)', 'measured tensor peak', 'peak RSS']);
    // log2(KiB) on a value axis: every tick a power of two that reads as a round binary size
    expect(opt.yAxis).toMatchObject({ type: 'value', name: 'peak memory (log scale)', min: 0, max: 18, interval: 3 });
    expect(opt.series[2].data[0]).toBeCloseTo(Math.log2(204800));
    expect(opt.yAxis.axisLabel.formatter(0)).toBe('1 KiB');
    expect(opt.yAxis.axisLabel.formatter(10)).toBe('1 MiB');
    expect(opt.yAxis.axisLabel.formatter(15)).toBe('32 MiB');
    expect(opt.tooltip.valueFormatter(10)).toBe('1.00 MiB');
    expect(binaryLogAxis(1_000_000)).toEqual({ max: 21, step: 3 });
    expect(binaryLogAxis(2 ** 40)).toEqual({ max: 40, step: 10 });
    expect(binaryLogAxis(8)).toEqual({ max: 3, step: 1 });
    expect(memoryBars([strategyResult('chunked', 1, { memory: { estimatedPeakBytes: 0, measuredPeakTensorBytes: 100 } })])).toMatchObject({ estimatedKiB: [null], measuredKiB: [1] });
    const noRss = memoryEstimateOption([strategyResult('chunked', 1, { memory: { estimatedPeakBytes: 2 * MB, measuredPeakTensorBytes: MB } })]) as AnyObj;
    expect(noRss.series).toHaveLength(2);
  });
});
