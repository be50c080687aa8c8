import { describe, expect, it } from 'vitest';
import { posteriorView } from '../testing/samplePosterior';
import { asLikelihoodShape, PERIOD_EDGE, posteriorHeatmapOption, posteriorRange } from './posteriorHeatmapOption';
import { stateTrackOption } from './stateTrackOption';

type AnyObj = Record<string, any>;

describe('posteriorHeatmapOption', () => {
  const view = posteriorView({ startRow: 20, endRow: 60 });

  it('draws the MAP and the true position over the image, on axes in s and cm', () => {
    const o = posteriorHeatmapOption(view) as AnyObj;
    expect(o.legend.data).toEqual(['MAP position', 'true position']);
    expect(o.yAxis.name).toBe('position (cm)');
    expect(o.xAxis.name).toBe('time (s)');
    const map = o.series.find((s: AnyObj) => s.name === 'MAP position');
    // the MAP at 30 cm sits on bin 1 (centres 10, 30, 50, 70)
    expect(map.data[0].value).toEqual([0, 0]);
    expect(map.data[10].value).toEqual([10, 1]);
  });

  it('marks the periods as bands over the image, in displayed rows', () => {
    const o = posteriorHeatmapOption(view, { bands: [[10, 20]] }) as AnyObj;
    const bands = o.series.find((s: AnyObj) => s.name === 'non-local periods');
    expect(bands.markArea.data).toEqual([[{ xAxis: 9.5 }, { xAxis: 19.5 }]]);
    // over the image (z 1), whose mark areas would otherwise be drawn under it
    expect(bands.markArea.z).toBeGreaterThan(1);
    expect(bands.markArea.itemStyle.borderColor).toBe(PERIOD_EDGE);
  });

  it('colours from 0 to the largest probability shown; the likelihood\'s shape carries the MAP as its argmax', () => {
    expect(posteriorRange([0.1, Number.NaN, 0.4])).toEqual([0, 0.4]);
    expect(posteriorRange([Number.NaN])).toEqual([0, 1]);
    const shape = asLikelihoodShape(view);
    expect(shape.decodedPosition).toBe(view.mapPosition);
    expect(shape.relative).toBe(false);
    const o = posteriorHeatmapOption(view) as AnyObj;
    expect([o.visualMap.min, o.visualMap.max]).toEqual([0, 0.7 * 0.95]);
  });
});

describe('stateTrackOption', () => {
  const view = posteriorView();

  it('one line per state and the non-local sum, on the heatmap\'s margins and time axis', () => {
    const o = stateTrackOption(view, { threshold: 0.8, bands: [[30, 40]] }) as AnyObj;
    expect(o.series.map((s: AnyObj) => s.name)).toEqual([...view.states, 'P(non-local)']);
    const heat = posteriorHeatmapOption(view) as AnyObj;
    expect([o.grid.left, o.grid.right]).toEqual([heat.grid.left, heat.grid.right]);
    expect([o.xAxis.min, o.xAxis.max]).toEqual([heat.xAxis.min, heat.xAxis.max]);
    expect(o.yAxis).toMatchObject({ min: 0, max: 1 });
    const sum = o.series.at(-1);
    expect(sum.markLine.data).toEqual([{ yAxis: 0.8 }]);
    expect(sum.markArea.data).toEqual([[{ xAxis: 29.5 }, { xAxis: 39.5 }]]);
    expect(o.series[2].data[35]).toEqual([35, 0.95 * 0.8]);
  });

  it('a NaN probability is a gap, not a zero', () => {
    const v = posteriorView();
    v.stateProbabilities![0]![3] = Number.NaN;
    const o = stateTrackOption(v, { threshold: 0.5 }) as AnyObj;
    expect(o.series[0].data[3]).toEqual([3, '-']);
  });
});
