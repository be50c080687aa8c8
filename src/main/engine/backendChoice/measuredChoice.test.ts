/**
 * `auto` measured on the run's data: the slice it times, and (on lavapipe, asked to measure a
 * software adapter) a choice that follows the times it reports, its reason saying what was
 * measured and a slower GPU saying so. Skips, saying why, without an adapter.
 */
import { describe, expect, it } from 'vitest';
import { listBackends } from '../index';
import { smallDataset } from '../testing/builders';
import { calibrationSlice, initBackendFor } from './index';

const dataset = () =>
  smallDataset({ nPos: 300, nTime: 200, electrodes: [{ nEnc: 200, nDec: 150, nFeatures: 4 }, { nEnc: 500, nDec: 120, nFeatures: 2 }, { nEnc: 50, nDec: 20, nFeatures: 3 }] });

describe('the slice auto measures', () => {
  it('is the electrode with the most encoding × decoding spikes, cut to two blocks of its decoding spikes', () => {
    const found = calibrationSlice(dataset(), 32)!;
    expect(found.slice.electrodes).toHaveLength(1);
    expect(found.electrode.encodingSpikeTimes.length).toBe(500);
    expect(found.decoding).toBe(64);
    expect(found.electrode.decodingFeatures.length).toBe(64 * 2);
    expect(calibrationSlice({ ...dataset(), electrodes: [] }, 32)).toBeNull();
  });
});

describe('auto measured', () => {
  it('takes the backend that measured faster per electrode and says what it measured', async (ctx) => {
    const web = (await listBackends()).find((b) => b.name === 'webgpu')!;
    if (!web.available) return ctx.skip();
    const info = await initBackendFor(dataset(), { cpuWorkers: 2, blockSize: 32, measureSoftwareAdapter: true });
    const m = /fit \+ predict ([\d.]+) ms on .*, ([\d.]+) ms on one CPU thread \(([\d.]+) ms per electrode on 2 threads\)/.exec(info.reason);
    expect(m, info.reason).not.toBeNull();
    expect(info.reason).toMatch(/^auto: measured on this run's largest electrode \(\S+: 500 encoding, 64 decoding spikes, 25 bins\)/);
    const [gpuMs, , cpuPerElectrode] = [Number(m![1]), Number(m![2]), Number(m![3])];
    if (info.name === 'webgpu') {
      expect(gpuMs).toBeLessThanOrEqual(cpuPerElectrode * 1.05);
      expect(info.reason).toMatch(/the GPU, [\d.]+× faster$/);
    } else {
      expect(info.name).toBe('wasm');
      expect(gpuMs).toBeGreaterThanOrEqual(cpuPerElectrode * 0.95);
      expect(info.reason).toMatch(/the CPU, as the GPU \(.*\) measured [\d.]+× slower than the CPU for this run's shape$/);
      expect(info.warnings.some((w) => /measured [\d.]+× slower .*--backend webgpu/.test(w))).toBe(true);
    }
  });
});
