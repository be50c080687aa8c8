import { describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import { FakeApi, installFakeApiEachTest } from '../testing/fakeApi';
import { systemInfo } from '../testing/sampleData';
import { useDataStore } from './dataStore';
import { backendOptions, ENGINE_CHOICES, engineFitsModel, ESTIMATE_DEBOUNCE_MS, useRunSetupStore } from './runSetupStore';
import { parseRunConfig } from '../../../shared/config';
import { useSystemStore } from './systemStore';

describe('useRunSetupStore', () => {
  let api: FakeApi;
  installFakeApiEachTest((a) => (api = a), { fakeTimers: true });

  it('re-estimates memory once, debounced, when the strategies change', async () => {
    const setup = useRunSetupStore();
    setup.toggleStrategy('streaming');
    await nextTick();
    setup.toggleStrategy('chunked');
    await nextTick();
    expect(api.callsOf('estimateMemory')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(ESTIMATE_DEBOUNCE_MS);
    expect(api.callsOf('estimateMemory')).toHaveLength(1);
    const asked = api.callsOf('estimateMemory')[0]!.args[0] as { strategies: string[] };
    expect(asked.strategies).toEqual(['reference', 'compensated', 'streaming', 'chunked']);
    expect(setup.estimates.map((e) => e.strategy)).toEqual(['reference', 'compensated', 'streaming', 'chunked']);
  });

  it('re-estimates when a tile size changes but not for the label', async () => {
    const setup = useRunSetupStore();
    setup.label = 'nightly';
    await nextTick();
    await vi.advanceTimersByTimeAsync(ESTIMATE_DEBOUNCE_MS);
    expect(api.callsOf('estimateMemory')).toHaveLength(0);
    setup.encTileSize = 512;
    await nextTick();
    await vi.advanceTimersByTimeAsync(ESTIMATE_DEBOUNCE_MS);
    expect(api.callsOf('estimateMemory')).toHaveLength(1);
    expect(api.callsOf('estimateMemory')[0]!.args[0]).toMatchObject({ encTileSize: 512 });
  });

  it('builds the run config, leaving blank sizes to the engine', () => {
    const setup = useRunSetupStore();
    setup.blockSize = 0;
    setup.posTileSize = 64;
    setup.local = true;
    const c = setup.config;
    expect(c.blockSize).toBeUndefined();
    expect(c.posTileSize).toBe(64);
    expect(c.local).toBe(true);
    expect(c.trace).toBe(true);
    expect(c.data).toEqual(useDataStore().source);
  });

  it('repeats until stable by default within a time per strategy, and passes workers and a memory budget the person sets', () => {
    const setup = useRunSetupStore();
    expect(setup.config.untilStable).toEqual({ relativeCi: 0.05, maxTimeS: 60, maxRepeats: 200 });
    expect(setup.config).not.toHaveProperty('workers');
    expect(setup.config).not.toHaveProperty('memoryBudgetBytes');
    setup.maxTimeS = 20;
    setup.workers = 2;
    setup.memoryBudgetMiB = 512;
    expect(setup.config).toMatchObject({ untilStable: { maxTimeS: 20 }, workers: 2, memoryBudgetBytes: 512 * 2 ** 20 });
    setup.repeatsAuto = false;
    expect(setup.config).not.toHaveProperty('untilStable');
    setup.repeatsAuto = true;
    setup.maxTimeS = 0;
    expect(setup.blocker).toMatch(/time per strategy/);
    setup.maxTimeS = 20;
    setup.workers = 1.5;
    expect(setup.blocker).toMatch(/Workers must be a whole number/);
  });

  it('asks for no posterior by default, else the chosen model timed with both posterior methods, estimating its stage too', async () => {
    const setup = useRunSetupStore();
    expect(setup.config).not.toHaveProperty('posterior');
    setup.posterior = 'detector';
    await nextTick();
    expect(setup.config.posterior).toEqual({ model: 'detector', methods: ['dense', 'structured'] });
    await vi.advanceTimersByTimeAsync(ESTIMATE_DEBOUNCE_MS);
    // the estimate covers the posterior stage, so a new model is a new estimate
    expect(api.callsOf('estimateMemory')).toHaveLength(1);
    expect(api.callsOf('estimateMemory')[0]!.args[0]).toMatchObject({ posterior: { model: 'detector' } });
    expect(setup.posteriorEstimates.map((e) => [e.model, e.method])).toEqual([['detector', 'dense'], ['detector', 'structured']]);
    setup.posterior = 'none';
    expect(setup.config).not.toHaveProperty('posterior');
    await nextTick();
    await vi.advanceTimersByTimeAsync(ESTIMATE_DEBOUNCE_MS);
    expect(setup.posteriorEstimates).toEqual([]);
  });

  it('offers the project\'s own engines, never a command, and sends the chosen ones in the order offered, without a new estimate', async () => {
    const setup = useRunSetupStore();
    expect(ENGINE_CHOICES).toEqual([
      'numpy', 'nld:clusterless_kde', 'nld:clusterless_kde_log', 'nld:decoder', 'nld:detector',
      'nld:clusterless_kde:x64', 'nld:clusterless_kde_log:x64', 'nld:decoder:x64', 'nld:detector:x64',
    ]);
    expect(setup.config).not.toHaveProperty('engines');
    setup.toggleEngine('nld:clusterless_kde_log:x64');
    setup.toggleEngine('numpy');
    await nextTick();
    expect(setup.config.engines).toEqual(['numpy', 'nld:clusterless_kde_log:x64']);
    await vi.advanceTimersByTimeAsync(ESTIMATE_DEBOUNCE_MS);
    expect(api.callsOf('estimateMemory')).toHaveLength(0);
    setup.toggleEngine('numpy');
    expect(setup.config.engines).toEqual(['nld:clusterless_kde_log:x64']);
    setup.toggleEngine('nld:clusterless_kde_log:x64');
    expect(setup.config).not.toHaveProperty('engines');
  });

  it("sends a whole-decode engine only while the run decodes that engine's model", () => {
    const setup = useRunSetupStore();
    setup.toggleEngine('numpy');
    setup.toggleEngine('nld:detector');
    expect(setup.config.engines).toEqual(['numpy']);
    setup.posterior = 'detector';
    expect(setup.config.engines).toEqual(['numpy', 'nld:detector']);
    expect(parseRunConfig(setup.config).engines).toEqual(['numpy', 'nld:detector']);
    setup.posterior = 'decoder';
    expect(setup.config.engines).toEqual(['numpy']);
    expect(engineFitsModel('nld:decoder', 'decoder')).toBe(true);
    expect(engineFitsModel('nld:decoder:x64', undefined)).toBe(false);
    expect(engineFitsModel('nld:clusterless_kde', undefined)).toBe(true);
  });

  it("sends the posterior's parameters the person gives, the detector's only for the detector, and blocks start on one the service would refuse", async () => {
    const setup = useRunSetupStore();
    await useDataStore().inspect();
    setup.posterior = 'detector';
    setup.movementVar = 2.5;
    setup.noSpikeRate = 0.01;
    setup.localPositionStd = 0;
    setup.discreteTransition = '[[0.97,0.01,0.01,0.01],[0.01,0.97,0.01,0.01],[0.01,0.01,0.97,0.01],[0.01,0.01,0.01,0.97]]';
    expect(setup.config.posterior?.parameters).toEqual({
      movementVar: 2.5, noSpikeRate: 0.01, localPositionStd: 0,
      discreteTransition: [[0.97, 0.01, 0.01, 0.01], [0.01, 0.97, 0.01, 0.01], [0.01, 0.01, 0.97, 0.01], [0.01, 0.01, 0.01, 0.97]],
    });
    // the service's own gate takes what the form sends
    expect(parseRunConfig(setup.config).posterior?.parameters).toEqual(setup.config.posterior?.parameters);
    expect(setup.blocker).toBeNull();
    // the decoder has no No-Spike or Local state: those fields are not its parameters
    setup.posterior = 'decoder';
    expect(setup.config.posterior?.parameters).toEqual({ movementVar: 2.5 });
    setup.posterior = 'detector';
    // a blank number field (v-model.number's '') leaves NLD's default
    (setup as unknown as { movementVar: unknown }).movementVar = '';
    expect(setup.config.posterior?.parameters).not.toHaveProperty('movementVar');
    setup.discreteTransition = '[[1, 0], [0, 1]]';
    expect(setup.blocker).toMatch(/^Posterior parameters: --discrete-transition: expected a 4 × 4 array/);
    expect(setup.config.posterior).not.toHaveProperty('parameters');
    setup.discreteTransition = '[[1, 0';
    expect(setup.blocker).toMatch(/^Posterior parameters: Discrete transition: not JSON/);
    setup.discreteTransition = '';
    setup.movementVar = -1;
    expect(setup.blocker).toMatch(/--movement-var: expected a positive number/);
    // NLD's detector decodes with its own No-Spike rate: the run would not compare, so it is refused here as the service would
    setup.movementVar = null;
    setup.toggleEngine('nld:detector');
    expect(setup.blocker).toMatch(/nld:detector decodes with non_local_detector's own --no-spike-rate/);
    setup.noSpikeRate = null;
    expect(setup.blocker).toBeNull();
    expect(setup.config.posterior?.parameters).toEqual({ localPositionStd: 0 });
  });

  it('blocks start until the data was inspected, and for an unavailable backend', async () => {
    const setup = useRunSetupStore();
    expect(setup.blocker).toMatch(/Data view/);
    await useDataStore().inspect();
    expect(setup.blocker).toBeNull();
    await useSystemStore().load();
    setup.backend = 'tensorflow';
    expect(setup.blocker).toMatch(/tfjs-node-gpu is not installed/);
    setup.backend = 'wasm';
    setup.strategies = [];
    expect(setup.blocker).toMatch(/at least one strategy/);
  });

  it('blocks start where the service says runs cannot start in its runs folder, naming it, and not where they can', async () => {
    const reason = 'the runs folder /archive/runs is not writable (EROFS): it is on a read-only disk or mount.';
    const readOnly = { path: '/archive/runs', canStartRuns: false, code: 'EROFS', reason };
    api.getInfo = async () => ({ ...systemInfo(), runsFolder: readOnly });
    const setup = useRunSetupStore();
    await useDataStore().inspect();
    expect(setup.blocker).toBeNull();
    const system = useSystemStore();
    await system.load();
    expect(system.runsFolder).toEqual(readOnly);
    expect(setup.blocker).toBe('No run can start in the runs folder /archive/runs (EROFS).');
    api.getInfo = async () => ({ ...systemInfo(), runsFolder: { path: '/archive/runs', canStartRuns: true } });
    await system.load(true);
    expect(setup.blocker).toBeNull();
  });

  it('lists backends with availability and auto first', () => {
    const opts = backendOptions(systemInfo().backends);
    expect(opts.map((o) => o.value)).toEqual(['auto', 'wasm', 'cpu', 'webgpu', 'tensorflow']);
    expect(opts[0]!.detail).toBe('picks among wasm, cpu');
    expect(opts.find((o) => o.value === 'webgpu')).toMatchObject({ available: false, label: 'webgpu (GPU)', detail: 'no WebGPU adapter' });
  });

  it('shows an estimate error and keeps the newest answer only', async () => {
    const setup = useRunSetupStore();
    let release: () => void = () => undefined;
    api.estimateMemory = (config) =>
      new Promise((resolve) => {
        release = () => resolve({ strategies: [{ strategy: 'reference', peakBytes: 1, formula: `old ${config.strategies.length}` }], posterior: [] });
      });
    const first = setup.estimate();
    const slowRelease = release;
    api.estimateMemory = async () => {
      throw Object.assign(new Error('bad block size'), { code: 'BAD_ARGUMENT' });
    };
    await setup.estimate();
    slowRelease();
    await first;
    expect(setup.estimateError).toBe('bad block size');
    expect(setup.estimates).toEqual([]);
  });
});
