/**
 * A webgpu device lost in the middle of a predict (destroyed here, as a driver reset would take
 * it): the predict fails rather than hangs or returns numbers, and the failure reads as a lost
 * device with what to do, where Dawn's own rejection says nothing. Its own file: the device stays
 * lost for the rest of the process (every run starts a new engine process, so a new device).
 * Skips, saying why, without an adapter.
 */
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { explainBackendFailure, fitEncodingModel, predictNonlocal } from '../index';
import type { EngineProbe } from '../model';
import { smallDataset } from '../testing/builders';
import { webgpuForTests } from '../testing/webgpuTests';

const available = webgpuForTests('webgpu device-loss test');

describe('a webgpu device lost mid-predict', () => {
  it('fails the predict, and the failure says the device was lost and what to do', async (ctx) => {
    if (!available()) return ctx.skip();
    const ds = smallDataset({ nPos: 300, nTime: 200, electrodes: [{ nEnc: 400, nDec: 150, nFeatures: 4 }, { nEnc: 300, nDec: 90, nFeatures: 2 }] });
    const model = await fitEncodingModel(ds);
    let blocks = 0;
    const probe: EngineProbe = {
      span: async (name, fn) => {
        const out = await fn();
        if (name === 'reduce' && ++blocks === 2) (tf.backend() as unknown as { device: { destroy(): void } }).device.destroy();
        return out;
      },
      counter: () => undefined, instant: () => undefined, progress: () => undefined,
    };
    const failure = await predictNonlocal(model, ds, 'compensated', { blockSize: 64 }, probe).then(() => null, (e: unknown) => e);
    expect(failure).not.toBeNull();
    // Dawn's rejection alone is an AbortError with no message
    expect(failure).not.toBeInstanceOf(AppError);
    const explained = await explainBackendFailure(failure);
    expect(explained).toBeInstanceOf(AppError);
    const e = explained as AppError;
    expect(e.code).toBe('DEVICE_LOST');
    expect(e.message).toMatch(/GPU device was lost .*destroyed/);
    expect(e.location?.hint).toMatch(/run it again .*--backend wasm/);
    // what is not a device's failure stays as it was
    const other = new AppError('E010', 'a data problem');
    expect(await explainBackendFailure(other)).toBe(other);
  });
});
