/**
 * Stage spans that measure device work rather than dispatch: on an asynchronous backend (WebGPU)
 * the end of a stage waits for one element of its result, which completes everything queued
 * before it. Synchronous backends (wasm, cpu, tfjs-node) have finished by the time an op returns.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { StageTools } from '../strategies';
import type { EngineProbe } from '../types';
import { activitySince, gpuActivity } from '../webgpu';

const ASYNC_BACKENDS = new Set(['webgpu', 'webgl']);

/** Whether the active backend returns from an op before the device has done it. */
export function isAsyncBackend(): boolean {
  return ASYNC_BACKENDS.has(tf.getBackend());
}

function firstTensor(container: tf.TensorContainer): tf.Tensor | null {
  if (container instanceof tf.Tensor) return container;
  if (Array.isArray(container)) {
    for (const c of container) {
      const t = firstTensor(c as tf.TensorContainer);
      if (t) return t;
    }
    return null;
  }
  if (container !== null && typeof container === 'object') {
    for (const c of Object.values(container)) {
      const t = firstTensor(c as tf.TensorContainer);
      if (t) return t;
    }
  }
  return null;
}

export async function waitForDevice(container: tf.TensorContainer): Promise<void> {
  if (!isAsyncBackend()) return;
  const t = firstTensor(container);
  if (t === null || t.size === 0) return;
  const one = tf.tidy(() => tf.slice(tf.reshape(t, [-1]), [0], [1]));
  try {
    await one.data();
  } finally {
    one.dispose();
  }
}

/**
 * Stage spans; on webgpu each stage's args also say what the device did inside it (`gpu`:
 * dispatches, pipelines compiled, bytes read back), counted by webgpu/activity.ts. Without
 * waitForDevice a stage span holds only the time its work took to be queued.
 */
export function makeStageTools(probe: EngineProbe, { waitForDevice: wait = true }: { waitForDevice?: boolean } = {}): StageTools {
  return {
    stage: (name, fn, args) => {
      const before = tf.getBackend() === 'webgpu' ? gpuActivity() : null;
      const spanArgs = before ? (args ?? {}) : args;
      return probe.span(name, async () => {
        const out = fn();
        if (wait) await waitForDevice(out);
        if (before && spanArgs) spanArgs.gpu = activitySince(before, gpuActivity()!);
        return out;
      }, spanArgs);
    },
    span: (name, fn, args) => probe.span(name, fn, args),
    instant: (name, args) => probe.instant(name, args),
  };
}
