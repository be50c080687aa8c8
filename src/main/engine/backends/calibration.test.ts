import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { calibrateBackend } from './calibration';
import { initBackend } from '../index';

describe('calibrateBackend', () => {
  it('measures wasm: positive finite rates, what it measured, no tensors left behind', async () => {
    const info = await initBackend('wasm');
    const before = tf.memory().numTensors;
    const t0 = performance.now();
    const c = await calibrateBackend(info);
    const wallMs = performance.now() - t0;
    expect(tf.memory().numTensors).toBe(before);
    expect(c.backend).toBe('wasm');
    expect(c.device).toBe(info.device);
    for (const rate of [c.matmulGflops, c.expGelemsPerS, c.logGelemsPerS, c.bandwidthGBps!]) {
      expect(Number.isFinite(rate)).toBe(true);
      expect(rate).toBeGreaterThan(0);
    }
    expect(Number.isNaN(Date.parse(c.measuredAt))).toBe(false);
    expect(c.durationMs).toBeGreaterThan(0);
    expect(c.durationMs).toBeLessThanOrEqual(wallMs);
  });

  it('keeps to small operands when told to', async () => {
    await initBackend('wasm');
    const c = await calibrateBackend(
      { name: 'wasm', device: 'test device' },
      { samples: 1, sampleMs: 1, matmulCallMs: 0.01, maxMatmulSize: 128, transcendentalSize: 1024, bandwidthSize: 1024 },
    );
    expect(c.device).toBe('test device');
    expect(c.matmulGflops).toBeGreaterThan(0);
  });
});
