/**
 * The GPU's kernels timed by timestamp queries in the profiled call (lavapipe here, whose clock
 * is the CPU's): every program a span on the host's clock inside the call, one after another; each
 * kernel's profiled time the sum of its programs' device time; the timer's own readbacks not
 * counted as the engine's; everything as before once the call is over. Skips, saying why, without
 * an adapter or without timestamp queries.
 */
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { fitEncodingModel, predictNonlocal, profileKernels } from '../index';
import { smallDataset } from '../testing/builders';
import { webgpuForTests } from '../testing/webgpuTests';
import { activitySince, gpuActivity, gpuTimingOn } from './index';

const available = webgpuForTests('webgpu timer tests');

interface Kernel { name: string; kernelTimeMs: unknown }

describe('the GPU timer in the profiled call', () => {
  it("gives each program a span inside the call and each kernel its programs' device time", async (ctx) => {
    if (!available()) return ctx.skip();
    if (!(tf.backend() as unknown as { device: { features: Set<string> } }).device.features.has('timestamp-query')) return ctx.skip();
    const ds = smallDataset({ nPos: 300, nTime: 200, electrodes: [{ nEnc: 400, nDec: 150, nFeatures: 4 }, { nEnc: 300, nDec: 90, nFeatures: 2 }] });
    const model = await fitEncodingModel(ds);
    const predict = () => predictNonlocal(model, ds, 'compensated', { blockSize: 64 });
    await predict();
    const plain = gpuActivity()!;
    await predict();
    const unprofiled = activitySince(plain, gpuActivity()!);

    const before = process.hrtime.bigint();
    const mark = gpuActivity()!;
    const profiled = await profileKernels(predict);
    const during = activitySince(mark, gpuActivity()!);
    const after = process.hrtime.bigint();
    const spans = profiled.deviceSpans!;
    expect(profiled.deviceLane).toMatch(/^GPU: /);
    // one span per dispatch, none counted twice or lost, and the timer's readbacks are not the engine's
    expect(spans.length).toBe(during.dispatches);
    expect(during.readBytes).toBe(unprofiled.readBytes);
    expect(spans.every((s) => s.startNs >= before && s.endNs <= after && s.endNs >= s.startNs)).toBe(true);
    expect(spans.every((s, i) => i === 0 || s.startNs >= spans[i - 1]!.endNs)).toBe(true);
    // 150 and 90 spikes in blocks of 64: 3 + 2 blocks, two programs each
    expect(spans.filter((s) => s.name === 'KdeFusedTerms').length).toBe(5);
    expect(spans.filter((s) => s.name === 'KdeFusedSpikeMax').length).toBe(5);
    const kernelMs = (profiled.kernels as Kernel[]).filter((k) => k.name === 'KdeFusedLikelihood').map((k) => k.kernelTimeMs as number);
    const programMs = spans.filter((s) => s.name.startsWith('KdeFused')).reduce((t, s) => t + Number(s.endNs - s.startNs) / 1e6, 0);
    expect(kernelMs.length).toBe(5);
    expect(kernelMs.every((ms) => ms > 0)).toBe(true);
    expect(Math.abs(kernelMs.reduce((a, b) => a + b, 0) - programMs)).toBeLessThan(1e-6 * programMs + 1e-9);

    // over: no timing, and the backend batches its dispatches again
    expect(gpuTimingOn()).toBe(false);
    const again = gpuActivity()!;
    await predict();
    expect(activitySince(again, gpuActivity()!)).toEqual(unprofiled);
    model.dispose();
  });
});
