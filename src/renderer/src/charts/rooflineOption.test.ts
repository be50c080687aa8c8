import { describe, expect, it } from 'vitest';
import type { Calibration, RooflineReportPart, StageRoofline, StrategyRoofline } from '../../../shared/roofline';
import { colorForIndex } from './palette';
import { decadeRange, rooflineCeilings, rooflineOption, rooflinePoints, rooflineStageKey } from './rooflineOption';

type AnyObj = Record<string, any>;

const calibration: Calibration = {
  backend: 'wasm', device: 'CPU', matmulGflops: 30, expGelemsPerS: 0.14, logGelemsPerS: 0.25, bandwidthGBps: 20,
  measuredAt: '2024-05-01T12:00:00.000Z', durationMs: 300,
};

function stage(name: string, arithmeticIntensity: number, achievedGflops: number, ceiling: StageRoofline['ceiling'] = 'matmul', peakGflops = 30): StageRoofline {
  return {
    stage: name, calls: 4, flops: 1e9, bytes: 1e9 / arithmeticIntensity, arithmeticIntensity, timeMs: 10, achievedGflops,
    peakGflops, fractionOfPeak: achievedGflops / peakGflops, ceiling,
  };
}

function roofline(stages: StageRoofline[]): StrategyRoofline {
  return { ...stages[0]!, stages };
}

const report: RooflineReportPart = {
  environment: { calibration },
  strategies: [
    { strategy: 'reference', roofline: roofline([stage('reduce', 40, 12), stage('position-kernel', 0.25, 0.8)]) },
    { strategy: 'logsumexp' },
    { strategy: 'compensated', roofline: roofline([stage('reduce', 30, 20), stage('scatter', 0, 0)]) },
  ],
};

describe('rooflineOption', () => {
  it('places one point per strategy and stage that has a positive intensity and rate', () => {
    const points = rooflinePoints(report);
    expect(points.map((p) => `${p.strategy}/${p.stage.stage}`)).toEqual(['reference/reduce', 'reference/position-kernel', 'compensated/reduce']);
    expect(points.map((p) => p.strategyIndex)).toEqual([0, 0, 2]);
  });

  it('draws the roofs in GFLOP/s only: matmul flat, bandwidth up to the ridge', () => {
    const lines = rooflineCeilings(calibration, 0.01, 1000);
    expect(lines.map((l) => l.name)).toEqual(['matmul peak 30 GFLOP/s', 'memory 20 GB/s']);
    expect(lines[0]!.points).toEqual([[0.01, 30], [1000, 30]]);
    // the ridge: 30 GFLOP/s ÷ 20 GB/s = 1.5 FLOP/byte, where the slope meets the peak
    expect(lines[1]!.points).toEqual([[0.01, 0.2], [1.5, 30]]);
    const { bandwidthGBps: _, ...noBandwidth } = calibration;
    expect(rooflineCeilings(noBandwidth, 0.01, 1000).map((l) => l.name)).not.toContain('memory 20 GB/s');
  });

  it('uses log axes from the decade below the data and the ridge to the decade above', () => {
    expect(decadeRange(0.25, 40)).toEqual([0.1, 100]);
    expect(decadeRange(3, 3)).toEqual([1, 10]);
    expect(decadeRange(1, 10)).toEqual([1, 10]);
    const opt = rooflineOption(report) as AnyObj;
    expect(opt.xAxis[0]).toMatchObject({ type: 'log', min: 0.1, max: 100, name: 'arithmetic intensity (FLOP/byte)' });
    // rates from 0.8 (a point) to 30 (the peak); the bandwidth slope does not widen them
    expect(opt.yAxis[0]).toMatchObject({ type: 'log', min: 0.1, max: 100, name: 'achieved GFLOP/s' });
  });

  it('colours each strategy as the other charts do, shapes each point by its stage and names it on hover', () => {
    const opt = rooflineOption(report) as AnyObj;
    const scatter = opt.series.filter((s: AnyObj) => s.type === 'scatter');
    expect(scatter.map((s: AnyObj) => [s.name, s.color])).toEqual([['reference', colorForIndex(0)], ['compensated', colorForIndex(2)]]);
    const key = new Map(rooflineStageKey(rooflinePoints(report)).map((k) => [k.stage, k.symbol]));
    expect(scatter[0].data).toEqual([
      { value: [40, 12], name: 'reduce', symbol: key.get('reduce') },
      { value: [0.25, 0.8], name: 'position-kernel', symbol: key.get('position-kernel') },
    ]);
    // the same stage has the same shape in every strategy
    expect(scatter[1].data[0].symbol).toBe(key.get('reduce'));
    expect(scatter[0].label).toMatchObject({ show: false, formatter: '{b}' });
    expect(scatter[0].emphasis.label.show).toBe(true);
    const tip = scatter[0].tooltip.formatter({ dataIndex: 1 }) as string;
    expect(tip).toContain('reference');
    expect(tip).toContain('position-kernel');
    expect(tip).toContain('0.8 of 30 GFLOP/s');
    expect(tip).toContain('matmul ceiling');
    const lines = opt.series.filter((s: AnyObj) => s.type === 'line');
    expect(lines).toHaveLength(2);
    expect(lines.every((l: AnyObj) => l.symbolSize === 0 && l.silent === true)).toBe(true);
    // the matmul peak is named at its right end; the legend lists the strategies only
    expect(lines[0].data[1]).toMatchObject({ value: [100, 30], label: { show: true, formatter: 'matmul peak 30 GFLOP/s' } });
    expect(opt.legend.data).toEqual(['reference', 'compensated']);
  });

  it('names the bandwidth slope above it, on its visible part away from the points, not at the ridge on the matmul line', () => {
    const slope = (r: RooflineReportPart) => (rooflineOption(r) as AnyObj).series.find((s: AnyObj) => s.name === 'memory 20 GB/s');
    // x from 0.1 to the ridge at 1.5 FLOP/byte: 0.1 × 20 = 2 GFLOP/s, inside the rate axis (0.1 to 100)
    const inside = slope(report).data;
    expect(inside[0]).toEqual([0.1, 2]);
    const [x, y] = inside[1].value;
    expect(y).toBeCloseTo(20 * x, 9);
    expect(x).toBeGreaterThan(0.1);
    expect(x).toBeLessThan(1.5);
    // the point at 0.25 FLOP/byte is not where the name goes
    expect(Math.abs(Math.log10(x / 0.25))).toBeGreaterThan(0.2);
    expect(inside[1].label).toMatchObject({ show: true, position: 'top', formatter: 'memory 20 GB/s' });
    expect(inside[2]).toEqual([1.5, 30]);
    // a slope that starts below the rate axis is named where it enters the chart, not off it
    const low: RooflineReportPart = { environment: { calibration }, strategies: [{ strategy: 'reference', roofline: roofline([stage('scatter', 0.002, 0.5)]) }] };
    const [start] = slope(low).data;
    expect(start[0]).toBeCloseTo(0.1 / 20, 12);
    expect(start[1]).toBeCloseTo(0.1, 12);
  });

  it('gives the engine stages fixed shapes in pipeline order, and other stages shapes none of them uses', () => {
    const key = rooflineStageKey(rooflinePoints(report));
    expect(key.map((k) => k.stage)).toEqual(['position-kernel', 'reduce']);
    expect(new Set(key.map((k) => k.symbol)).size).toBe(2);
    const odd: RooflineReportPart = {
      environment: { calibration },
      strategies: [{ strategy: 'reference', roofline: roofline([stage('transfer', 1, 1), stage('occupancy', 1, 1), stage('reduce', 2, 2)]) }],
    };
    const oddKey = rooflineStageKey(rooflinePoints(odd));
    expect(oddKey.map((k) => k.stage)).toEqual(['occupancy', 'reduce', 'transfer']);
    expect(oddKey[1]!.symbol).toBe(key[1]!.symbol);
    expect(new Set(oddKey.map((k) => k.symbol)).size).toBe(3);
    expect(oddKey.every((k) => k.glyph.length > 0)).toBe(true);
    // the series strategy's factor sits in pipeline order with a shape of its own
    const series: RooflineReportPart = {
      environment: { calibration },
      strategies: [{ strategy: 'series', roofline: roofline([stage('reduce', 2, 2), stage('series-factor', 3, 3), stage('ground-process', 1, 1)]) }],
    };
    const seriesKey = rooflineStageKey(rooflinePoints(series));
    expect(seriesKey.map((k) => k.stage)).toEqual(['ground-process', 'series-factor', 'reduce']);
    expect(seriesKey[2]!.symbol).toBe(key[1]!.symbol);
    expect(new Set(seriesKey.map((k) => k.symbol)).size).toBe(3);
  });

  it('has nothing to draw without a calibration or without measured stages', () => {
    expect(rooflineOption({ ...report, environment: {} })).toBeNull();
    expect(rooflineOption({ environment: { calibration }, strategies: [{ strategy: 'reference' }] })).toBeNull();
  });

  it('escapes names in the tooltip', () => {
    const odd: RooflineReportPart = { environment: { calibration }, strategies: [{ strategy: '<b>x</b>', roofline: roofline([stage('reduce', 1, 1)]) }] };
    const scatter = (rooflineOption(odd) as AnyObj).series.find((s: AnyObj) => s.type === 'scatter');
    expect(scatter.tooltip.formatter({ dataIndex: 0 })).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  describe('an expert\'s roofline', () => {
    // the engine's real mix: a GEMM reduce, a memory-bound scatter above its slope, an exp-bound mark kernel above its own ceiling
    const mixed: RooflineReportPart = {
      environment: { calibration },
      strategies: [{
        strategy: 'compensated',
        roofline: roofline([
          stage('reduce', 18, 4.7),
          stage('scatter', 0.07, 0.6, 'memory', 0.36),
          stage('mark-kernel', 0.9, 0.05, 'exp', 0.1),
          stage('position-kernel', 0.7, 0.2, 'log', 0.16),
        ]),
      }],
    };
    const opt = rooflineOption(mixed) as AnyObj;
    const onAxis = (axis: number) => opt.series.filter((s: AnyObj) => (s.yAxisIndex ?? 0) === axis);

    it('puts no element rate (G/s) on the GFLOP/s axis: neither an exp or log ceiling nor an exp- or log-bound stage', () => {
      expect(opt.yAxis[0].name).toBe('achieved GFLOP/s');
      const gflopsSeries = onAxis(0);
      expect(gflopsSeries.filter((s: AnyObj) => s.type === 'line').map((s: AnyObj) => s.name)).toEqual(['matmul peak 30 GFLOP/s', 'memory 20 GB/s']);
      expect(gflopsSeries.some((s: AnyObj) => / G\/s/.test(String(s.name)))).toBe(false);
      const stagesUp = gflopsSeries.filter((s: AnyObj) => s.type === 'scatter').flatMap((s: AnyObj) => s.data.map((d: AnyObj) => d.name));
      expect(stagesUp.sort()).toEqual(['reduce', 'scatter']);
    });

    it('gives exp- and log-bound stages their own panel, each as a share of its own ceiling with the roof at 100 %', () => {
      expect(opt.grid).toHaveLength(2);
      expect(opt.yAxis[1]).toMatchObject({ type: 'log', gridIndex: 1, name: '% of own ceiling' });
      const below = onAxis(1);
      const roof = below.find((s: AnyObj) => s.type === 'line');
      expect(roof.data[0].value).toEqual([0.01, 1]);
      expect(roof.data[1]).toEqual([100, 1]);
      const points = below.filter((s: AnyObj) => s.type === 'scatter').flatMap((s: AnyObj) => s.data);
      expect(points.map((d: AnyObj) => [d.name, d.value[1]])).toEqual([['mark-kernel', 0.5], ['position-kernel', 1.25]]);
      // the same strategy is one legend entry across both panels
      expect(opt.legend.data).toEqual(['compensated']);
    });

    it('names every point above a ceiling with why it can be there, and only those', () => {
      expect(opt.yAxis[1]).toMatchObject({ min: 0.1, max: 10 });
      const points = opt.series.filter((s: AnyObj) => s.type === 'scatter').flatMap((s: AnyObj) => s.data);
      const labelled = points.filter((d: AnyObj) => d.label?.show);
      expect(labelled.map((d: AnyObj) => d.name).sort()).toEqual(['position-kernel', 'scatter']);
      // scatter ran at 0.6 GFLOP/s where the slope allows 0.07 × 20 = 1.4: under the slope, but 1.67× the mix's own peak
      expect(labelled.find((d: AnyObj) => d.name === 'scatter').label.formatter).toMatch(/^scatter: 1\.7× its ceiling\n\(less ran than the model counts/);
      expect(labelled.find((d: AnyObj) => d.name === 'position-kernel').label.formatter).toMatch(/1\.3× its ceiling/);
      // labels are moved apart, never hidden, and sit to the right of their point, not under it
      for (const s of opt.series.filter((x: AnyObj) => x.type === 'scatter')) {
        expect(s.labelLayout).toEqual({ moveOverlap: 'shiftY' });
        expect(s.label.position).toBe('right');
      }
    });

    it('names no ceiling under its line', () => {
      const labels = opt.series.flatMap((s: AnyObj) => s.data.filter((d: AnyObj) => d?.label).map((d: AnyObj) => d.label));
      expect(labels.every((l: AnyObj) => l.position !== 'bottom')).toBe(true);
    });

    it('names the same stage of several strategies on one spot once', () => {
      const twin: RooflineReportPart = {
        environment: { calibration },
        strategies: ['reference', 'compensated'].map((strategy) => ({ strategy, roofline: roofline([stage('scatter', 0.07, 0.6, 'memory', 0.36)]) })),
      };
      const points = (rooflineOption(twin) as AnyObj).series.filter((s: AnyObj) => s.type === 'scatter').flatMap((s: AnyObj) => s.data);
      expect(points.filter((d: AnyObj) => d.label?.show)).toHaveLength(1);
    });

    it('keeps one panel when no stage is exp- or log-bound', () => {
      expect((rooflineOption(report) as AnyObj).grid).toHaveLength(1);
    });
  });
});
