import { describe, expect, it } from 'vitest';
import { CROSSOVER_SERIES, runIdAt, sweepOption } from '../charts/sweepOption';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { sampleSweep, SAMPLE_RUN_IDS, SAMPLE_SWEEP_ID } from '../testing/sampleSweep';
import { hashOf, routeFromHash } from './navStore';
import { useSweepsStore } from './sweepsStore';

type AnyObj = Record<string, any>;

describe('useSweepsStore', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a));

  it('lists the sweeps newest first', async () => {
    api.sweeps = [sampleSweep({ id: '20260101-000000-aaaaaa', createdAt: '2026-01-01T00:00:00Z' }), sampleSweep()];
    const store = useSweepsStore();
    await store.refresh();
    expect(store.sweeps.map((s) => s.id)).toEqual([SAMPLE_SWEEP_ID, '20260101-000000-aaaaaa']);
    expect(store.sweeps[0]).toMatchObject({ vary: 'encoding-spikes', values: [10, 20, 40, 80], crossovers: 1 });
  });

  it('opens a sweep whose chart option draws a line per strategy, whiskers, and the crossover as a labelled vertical markLine', async () => {
    const store = useSweepsStore();
    await store.open(SAMPLE_SWEEP_ID);
    expect(api.callsOf('getSweep')[0]!.args).toEqual([SAMPLE_SWEEP_ID]);
    expect(store.sweepId).toBe(SAMPLE_SWEEP_ID);
    const option = sweepOption(store.sweep!, store.metric) as AnyObj;
    expect(option.xAxis.type).toBe('log');
    expect(option.yAxis.type).toBe('log');
    const lines = option.series.filter((s: AnyObj) => s.type === 'line');
    expect(lines.map((s: AnyObj) => s.name)).toEqual(['reference', 'compensated']);
    expect(lines[0].data).toEqual([[10, 1], [20, 4], [40, 16], [80, 64]]);
    const whiskers = option.series.filter((s: AnyObj) => s.type === 'custom');
    expect(whiskers.map((s: AnyObj) => s.name)).toEqual(['reference', 'compensated']);
    expect(whiskers[1].data[0]).toEqual([10, 5 * 0.97, 5 * 1.03]);
    const crossover = option.series.find((s: AnyObj) => s.name === CROSSOVER_SERIES);
    expect(crossover.data).toEqual([[50, 25]]);
    expect(crossover.markLine.data).toHaveLength(1);
    const mark = crossover.markLine.data[0];
    expect(mark.xAxis).toBe(50);
    expect(mark.label.formatter).toBe('compensated from ≈ 50');
    expect(mark.lineStyle.type).toBe('solid');
    // the ticks are the values swept; the legend carries each strategy's slope
    expect(option.xAxis.axisLabel.customValues).toEqual([10, 20, 40, 80]);
    expect(option.legend.formatter('reference')).toBe('reference · slope 2.00');
    // a point's run is found by its value: what a click opens
    expect(runIdAt(store.sweep!, 40)).toBe(SAMPLE_RUN_IDS[2]);
    expect(runIdAt(store.sweep!, 41)).toBeNull();
  });

  it('dashes a crossover that is not significant, and shows none on a stage', async () => {
    const base = sampleSweep();
    api.sweeps = [sampleSweep({ crossovers: [{ ...base.crossovers[0]!, significant: false }] })];
    const store = useSweepsStore();
    await store.open(SAMPLE_SWEEP_ID);
    const total = sweepOption(store.sweep!, 'total') as AnyObj;
    const mark = total.series.find((s: AnyObj) => s.name === CROSSOVER_SERIES).markLine.data[0];
    expect(mark.lineStyle.type).toBe('dashed');
    expect(mark.label.formatter).toBe('compensated from ≈ 50 (not significant)');
    store.metric = 'mark-kernel';
    const stage = sweepOption(store.sweep!, store.metric) as AnyObj;
    expect(stage.series.some((s: AnyObj) => s.name === CROSSOVER_SERIES)).toBe(false);
    expect(stage.series.filter((s: AnyObj) => s.type === 'line').map((s: AnyObj) => s.name)).toEqual(['reference', 'compensated']);
    expect(stage.yAxis.name).toBe('mark-kernel time per repeat (mean)');
  });

  it('shows the service\'s error for a sweep that is gone, and the later of two opens wins', async () => {
    const store = useSweepsStore();
    await store.open('20000101-000000-abcdef');
    expect(store.sweep).toBeNull();
    expect(store.sweepError).toMatch(/no sweep 20000101-000000-abcdef/);
    store.metric = 'mark-kernel';
    api.sweeps = [sampleSweep(), sampleSweep({ id: '20260101-000000-aaaaaa', strategies: [sampleSweep().strategies[1]!] })];
    const first = store.open(SAMPLE_SWEEP_ID);
    const second = store.open('20260101-000000-aaaaaa');
    await Promise.all([first, second]);
    expect(store.sweepId).toBe('20260101-000000-aaaaaa');
    // that sweep has no mark-kernel stage: the chart goes back to the total
    expect(store.metric).toBe('total');
  });

  it('the address names the sweep shown', () => {
    expect(hashOf('sweeps', { sweep: SAMPLE_SWEEP_ID })).toBe(`#/sweeps?sweep=${SAMPLE_SWEEP_ID}`);
    expect(routeFromHash(`#/sweeps?sweep=${SAMPLE_SWEEP_ID}`)).toEqual({ view: 'sweeps', params: { sweep: SAMPLE_SWEEP_ID } });
  });
});
