/**
 * The stage timer on webgpu (lavapipe here): a predict whose stages do not wait for the device,
 * with every span given the GPU time of the work it issued. Timing reads nothing back that the
 * engine waits on and changes no bit of the likelihood; each span's self time lies within its
 * total, the self times add up to the passes' time, and each pass is named after its span.
 * Skips, saying why, without an adapter or without timestamp queries.
 */
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { fitEncodingModel, NULL_PROBE, openStageTimer, predictNonlocal, stageClock } from '../index';
import { smallDataset } from '../testing/builders';
import { webgpuForTests } from '../testing/webgpuTests';
import { activitySince, gpuActivity, gpuTimingOn } from './index';

const available = webgpuForTests('webgpu stage timer tests');

describe('the stage timer', () => {
  it('gives each span of a predict without stage waits its GPU time, and changes nothing else', async (ctx) => {
    if (!available()) return ctx.skip();
    if (!(tf.backend() as unknown as { device: { features: Set<string> } }).device.features.has('timestamp-query')) return ctx.skip();
    expect(stageClock()).toBe('gpu');
    const ds = smallDataset({ nPos: 200, nTime: 150, electrodes: [{ nEnc: 300, nDec: 120, nFeatures: 3 }, { nEnc: 200, nDec: 70, nFeatures: 2 }] });
    const model = await fitEncodingModel(ds);
    const predict = (probe = NULL_PROBE) => predictNonlocal(model, ds, 'compensated', { blockSize: 32, stageSync: false }, probe);
    await predict();
    const plainMark = gpuActivity()!;
    const plain = Float64Array.from((await predict()).logLikelihood);
    const untimed = activitySince(plainMark, gpuActivity()!);

    const timer = openStageTimer();
    const mark = gpuActivity()!;
    const timed = await predict(timer.probe(NULL_PROBE));
    const during = activitySince(mark, gpuActivity()!);
    const { spans, passes } = await timer.close();

    expect(gpuTimingOn()).toBe(false);
    expect(during.readbacks).toBe(untimed.readbacks);
    expect(during.dispatches).toBe(untimed.dispatches);
    expect(Float64Array.from(timed.logLikelihood)).toEqual(plain);

    expect(spans.length).toBeGreaterThan(0);
    expect(spans.every((s) => s.gpuSelfMs >= 0 && s.gpuSelfMs <= s.gpuMs + 1e-9)).toBe(true);
    const passMs = passes.reduce((t, p) => t + Number(p.endNs - p.startNs) / 1e6, 0);
    const selfMs = spans.reduce((t, s) => t + s.gpuSelfMs, 0);
    expect(passMs).toBeGreaterThan(0);
    expect(Math.abs(selfMs - passMs)).toBeLessThan(1e-6 * passMs + 1e-9);
    const names = new Set(spans.map((s) => s.name));
    expect(passes.every((p) => names.has(p.name))).toBe(true);
    // the likelihood's work is done inside the electrodes' spans
    expect(spans.filter((s) => s.name === 'electrode').reduce((t, s) => t + s.gpuMs, 0)).toBeGreaterThan(0);
    model.dispose();
  });
});
