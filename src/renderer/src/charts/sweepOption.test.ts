import { describe, expect, it } from 'vitest';
import { sampleSweep } from '../testing/sampleSweep';
import { logTicks, niceLogBounds, sweepChartPoints, sweepMetrics, sweepOption } from './sweepOption';

describe('sweepOption', () => {
  it('lists the metrics total first, each once', () => {
    expect(sweepMetrics(sampleSweep())).toEqual(['total', 'encode', 'mark-kernel']);
  });

  it('leaves out what log axes cannot show, and has no chart without a point', () => {
    const s = sampleSweep();
    s.strategies[0]!.series[0]!.points[1] = null;
    s.strategies[1]!.series[0]!.points[0] = { ms: 0, ci95: null, n: 1 };
    expect(sweepChartPoints(s, 'total').map((p) => [p.strategy, p.value])).toEqual([
      ['reference', 10], ['reference', 40], ['reference', 80], ['compensated', 20], ['compensated', 40], ['compensated', 80],
    ]);
    expect(sweepOption(s, 'no-such-stage')).toBeNull();
  });

  it('ends the time axis on 1-2-5 steps around the points', () => {
    expect(niceLogBounds(41, 460)).toEqual([20, 500]);
    expect(niceLogBounds(0.9, 1.8)).toEqual([0.5, 2]);
    expect(niceLogBounds(100, 200)).toEqual([100, 200]);
    const option = sweepOption(sampleSweep()) as Record<string, any>;
    // the sample's intervals reach from 0.97 ms to 65.9 ms
    expect([option.yAxis.min, option.yAxis.max]).toEqual([0.5, 100]);
  });

  it('puts 1-2-5 ticks on the time axis, finer within a narrow range', () => {
    expect(logTicks(0.8, 130)).toEqual([1, 2, 5, 10, 20, 50, 100]);
    expect(logTicks(52, 96)).toEqual([60, 70, 80, 90]);
  });
});
