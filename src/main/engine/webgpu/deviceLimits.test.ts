/**
 * The device the engine computes on is created with its adapter's limits, not WebGPU's defaults
 * (16 KiB of workgroup memory, 128 MiB per storage binding): the fused kernels' tiles and an
 * electrode's whole position factor are sized against what the chip has. TensorFlow.js's webgpu
 * backend asks for these limits when it creates the device; this checks that the device got them.
 */
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { webgpuForTests } from '../testing/webgpuTests';

const available = webgpuForTests('webgpu device limit tests');

const LIMITS = [
  'maxComputeWorkgroupStorageSize', 'maxStorageBufferBindingSize', 'maxBufferSize', 'maxComputeWorkgroupsPerDimension',
  'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX',
] as const;

type Limits = Record<(typeof LIMITS)[number], number>;

describe('the webgpu device', () => {
  it("has its adapter's limits, not WebGPU's defaults", async (ctx) => {
    if (!available()) return ctx.skip();
    const gpu = (globalThis as unknown as { navigator: { gpu: { requestAdapter(o?: object): Promise<{ limits: Limits } | null> } } }).navigator.gpu;
    const adapter = (await gpu.requestAdapter({ powerPreference: 'high-performance' }))!;
    const device = (tf.backend() as unknown as { device: { limits: Limits } }).device;
    for (const name of LIMITS) expect(device.limits[name], name).toBe(adapter.limits[name]);
  });
});
