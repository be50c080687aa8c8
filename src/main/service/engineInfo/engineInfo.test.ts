import { describe, expect, it } from 'vitest';
import type { RunMemoryEstimate } from '../../../shared/api';
import { DEFAULT_RUN_CONFIG, POSTERIOR_METHODS, type DataSource, type RunConfig } from '../../../shared/config';
import { loadDataset } from '../../data';
import { DEFAULT_ROWS_PER_WINDOW } from '../../engine/model';
import { posteriorStageEstimate, posteriorStageEstimateOfSummary } from '../../engine/posterior';
import type { EngineChild } from '../../host';
import { DatasetSummaryCache } from '../datasets';
import { estimateRunMemory, SystemInfoCache } from './engineInfo';

/** A stand-in engine process that answers a probe with one backend of the given name, or dies. */
function fakeEngine(backend: string | null, spawned: { count: number }): () => EngineChild {
  return () => {
    spawned.count++;
    let onMessage: (m: unknown) => void = () => undefined;
    let onExit: (e: { code: number | null; signal: string | null }) => void = () => undefined;
    return {
      pid: 1,
      send: () => {
        setTimeout(() => {
          if (backend) onMessage({ type: 'probe-result', probe: { tfjsVersion: '4.22.0', backends: [{ name: backend, available: true, detail: '', isGpu: false }] } });
          onExit(backend ? { code: 0, signal: null } : { code: 3, signal: null });
        }, 1);
      },
      onMessage: (l) => (onMessage = l),
      onExit: (l) => (onExit = l),
      kill: () => undefined,
      stderrTail: () => 'Error: no backend',
    };
  };
}

describe('SystemInfoCache', () => {
  it("probes its own service's engine once, whatever another service in the process does", async () => {
    const spawnedA = { count: 0 };
    const spawnedB = { count: 0 };
    const a = new SystemInfoCache(fakeEngine('wasm', spawnedA));
    const b = new SystemInfoCache(fakeEngine('webgpu', spawnedB));
    expect((await a.get()).backends.map((x) => x.name)).toEqual(['wasm']);
    expect((await b.get()).backends.map((x) => x.name)).toEqual(['webgpu']);
    await a.get();
    expect([spawnedA.count, spawnedB.count]).toEqual([1, 1]);
  });

  it('asks again after a failed probe', async () => {
    const spawned = { count: 0 };
    const failing = new SystemInfoCache(fakeEngine(null, spawned));
    await expect(failing.get()).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
    await expect(failing.get()).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
    expect(spawned.count).toBe(2);
  });
});

describe('estimateRunMemory', () => {
  const medium: DataSource = { kind: 'preset', name: 'medium', seed: 42, features: 4, featureScale: 1 };
  const base: RunConfig = { ...DEFAULT_RUN_CONFIG, data: medium, strategies: ['reference', 'compensated'] };
  const total = (e: RunMemoryEstimate) => [...e.strategies, ...e.posterior].reduce((sum, x) => sum + x.peakBytes, 0);

  it("adds the posterior stage a run asks for, one row per method, by engine/posterior's formula", async () => {
    const cache = new DatasetSummaryCache();
    const without = await estimateRunMemory(base, cache);
    expect(without.posterior).toEqual([]);
    const asked = await estimateRunMemory({ ...base, posterior: { model: 'detector', methods: [...POSTERIOR_METHODS] } }, cache);
    expect(asked.strategies).toEqual(without.strategies);
    const summary = await cache.summaryOf(medium);
    const stage = POSTERIOR_METHODS.map((method) => posteriorStageEstimateOfSummary({ model: 'detector', method, rowsPerWindow: DEFAULT_ROWS_PER_WINDOW }, summary)!);
    expect(asked.posterior).toEqual(stage.map((e, i) => ({
      model: 'detector', method: POSTERIOR_METHODS[i], rowsPerWindow: Math.min(DEFAULT_ROWS_PER_WINDOW, summary.nTime), peakBytes: e.bytes, formula: e.formula,
    })));
    expect(total(asked) - total(without)).toBe(stage.reduce((sum, e) => sum + e.bytes, 0));
  });

  it("is, from the summary, what the engine's stage estimates on the dataset's own grid", async () => {
    const cache = new DatasetSummaryCache();
    const dataset = await loadDataset(medium);
    const grid = dataset.placeGrid ?? { centers: dataset.placeBinCenters, interior: new Uint8Array(dataset.placeBinCenters.length).fill(1) };
    const { posterior } = await estimateRunMemory({ ...base, posterior: { model: 'decoder', methods: [...POSTERIOR_METHODS] } }, cache);
    for (const row of posterior) {
      const engine = posteriorStageEstimate({ model: 'decoder', method: row.method, rowsPerWindow: DEFAULT_ROWS_PER_WINDOW }, grid, dataset.time.length);
      expect(Math.abs(row.peakBytes - engine.bytes)).toBeLessThanOrEqual(0.01 * engine.bytes);
    }
  });

  it('has no posterior row where the data cannot have one (2-D positions)', async () => {
    const summary = await new DatasetSummaryCache().summaryOf(medium);
    const flat = { summaryOf: async () => ({ ...summary, positionDims: 2 }) } as unknown as DatasetSummaryCache;
    const estimate = await estimateRunMemory({ ...base, posterior: { model: 'decoder', methods: ['structured'] } }, flat);
    expect(estimate.posterior).toEqual([]);
    expect(estimate.strategies).toHaveLength(2);
  });
});
