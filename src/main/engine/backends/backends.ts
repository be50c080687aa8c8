/**
 * Compute backends, chosen at run time: wasm (default), cpu, webgpu (Dawn from the `webgpu`
 * package: Vulkan, Metal or D3D12) and tensorflow (tfjs-node-gpu, else tfjs-node; optional
 * installs loaded by dynamic import, never both in one process). `auto` picks the fastest real
 * device present and says why. Whether an optional package is installed is asked of the module
 * resolver (import.meta.resolve, no Node import), which finds a package without loading it: a
 * probe must not load libtensorflow, and tfjs-node and tfjs-node-gpu never load in one process.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { BackendAvailability } from '../../../shared/api';
import type { BackendChoice, BackendName } from '../../../shared/config';
import { AppError } from '../../../shared/errors';
import type { BackendInfo } from '../../../shared/report';
import type { DeviceSpan } from '../model';
import { installWasmKernels } from '../simd';
import { installGpuActivity, installWebGpuKernels } from '../webgpu';
import { installWebGpuTimer, profileOnGpuClock, webGpuLane } from './gpuProfile';

const TF_NODE_GPU = '@tensorflow/tfjs-node-gpu';
/**
 * Set to 1 to keep TensorFlow.js's own wasm Exp and Log and the op-graph Gaussian kernel instead of
 * the engine's SIMD kernels, and the op graphs instead of the engine's WGSL kernels on webgpu: the A/B switch the kernel benchmark and a doubtful user need. An
 * environment variable, so it reaches the engine process and its pool workers unchanged.
 */
export const TFJS_KERNELS_ENV = 'KDE_PROFILER_TFJS_KERNELS';
const TF_NODE = '@tensorflow/tfjs-node';

interface Probe {
  available: boolean;
  device: string;
  isGpu: boolean;
  isFallback: boolean;
  detail: string;
}

function isInstalled(spec: string): boolean {
  try {
    import.meta.resolve(spec);
    return true;
  } catch {
    // not found (ERR_MODULE_NOT_FOUND), or a runtime without import.meta.resolve: not usable here
    return false;
  }
}

interface WebGpuAdapterInfo {
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
  isFallbackAdapter?: boolean;
}

let webgpuGlobalsReady: Promise<boolean> | null = null;

/** Installs Dawn's navigator.gpu before the tfjs WebGPU backend is imported (it reads it at init). */
function ensureWebGpuGlobals(): Promise<boolean> {
  webgpuGlobalsReady ??= (async () => {
    const g = globalThis as unknown as { navigator?: { gpu?: unknown } };
    if (g.navigator?.gpu) return true;
    try {
      const spec = 'webgpu';
      const mod = (await import(spec)) as { create: (opts: string[]) => unknown; globals: object };
      Object.assign(globalThis, mod.globals);
      // Dawn rounds timestamp queries to 65 536 ns unless told not to: GPU spans need them exact
      const gpu = mod.create(['disable-dawn-features=timestamp_quantization']);
      if (g.navigator) (g.navigator as { gpu?: unknown }).gpu = gpu;
      else Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true, writable: true });
      return true;
    } catch {
      return false;
    }
  })();
  return webgpuGlobalsReady;
}

async function probeWebGpu(): Promise<Probe> {
  if (!(await ensureWebGpuGlobals())) {
    return { available: false, device: '', isGpu: false, isFallback: false, detail: 'the webgpu (Dawn) package could not be loaded on this platform' };
  }
  const gpu = (globalThis as unknown as { navigator: { gpu: { requestAdapter(o?: object): Promise<{ info?: WebGpuAdapterInfo } | null> } } }).navigator.gpu;
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' }).catch(() => null);
  if (!adapter) {
    return { available: false, device: '', isGpu: false, isFallback: false, detail: 'no WebGPU adapter: install a Vulkan, Metal or D3D12 driver' };
  }
  const info = adapter.info ?? {};
  const isFallback = info.isFallbackAdapter === true || info.architecture === 'software';
  const name = info.description || info.device || 'unknown adapter';
  const device = `${name} (${info.vendor || 'unknown vendor'}${isFallback ? ', software' : ''})`;
  return { available: true, device, isGpu: !isFallback, isFallback, detail: device };
}

function probeTensorflow(): Probe {
  if (isInstalled(TF_NODE_GPU)) return { available: true, device: 'tfjs-node-gpu (CUDA)', isGpu: true, isFallback: false, detail: 'tfjs-node-gpu installed (needs CUDA 11.2 + cuDNN 8.1 to use the GPU)' };
  if (isInstalled(TF_NODE)) return { available: true, device: 'tfjs-node (CPU, libtensorflow)', isGpu: false, isFallback: false, detail: 'tfjs-node installed (CPU only)' };
  return { available: false, device: '', isGpu: false, isFallback: false, detail: 'neither @tensorflow/tfjs-node-gpu nor @tensorflow/tfjs-node is installed (optional; npm install @tensorflow/tfjs-node-gpu@4.22.0 with CUDA 11.2 + cuDNN 8.1)' };
}

export async function listBackends(): Promise<BackendAvailability[]> {
  const web = await probeWebGpu();
  const tfn = probeTensorflow();
  return [
    { name: 'wasm', available: true, detail: 'CPU (WebAssembly SIMD, one thread)', isGpu: false },
    { name: 'cpu', available: true, detail: 'CPU (plain JavaScript, for checking)', isGpu: false },
    { name: 'webgpu', available: web.available, detail: web.detail, isGpu: web.isGpu },
    { name: 'tensorflow', available: tfn.available, detail: tfn.detail, isGpu: tfn.isGpu },
  ];
}

// PROD silences tfjs's console advice ("install tfjs-node") that would pollute CLI output and
// turns off debug-only checks; correctness checks in this engine do not rely on them.
tf.env().set('PROD', true);

async function activate(name: BackendName): Promise<Omit<BackendInfo, 'reason' | 'initMs' | 'tfjsVersion'>> {
  const warnings: string[] = [];
  switch (name) {
    case 'wasm': {
      await import('@tensorflow/tfjs-backend-wasm');
      await setBackendOrThrow('wasm');
      const simd = tf.env().getBool('WASM_HAS_SIMD_SUPPORT');
      const own = simd && process.env[TFJS_KERNELS_ENV] !== '1';
      const fused = own && installWasmKernels().fusedMultiplyAdd;
      const kernels = own ? `; the engine's SIMD exp, log and Gaussian kernels${fused ? ', fused multiply-add' : ''}` : '';
      return { name, device: `CPU (WebAssembly${simd ? ' SIMD' : ''}, one thread${kernels})`, isGpu: false, isFallback: false, warnings };
    }
    case 'cpu':
      await import('@tensorflow/tfjs-backend-cpu');
      await setBackendOrThrow('cpu');
      return { name, device: 'CPU (plain JavaScript)', isGpu: false, isFallback: false, warnings };
    case 'webgpu': {
      const probe = await probeWebGpu();
      if (!probe.available) throw new AppError('BACKEND_UNAVAILABLE', `webgpu backend unavailable: ${probe.detail}`, { hint: 'use --backend wasm' });
      await import('@tensorflow/tfjs-backend-webgpu');
      await setBackendOrThrow('webgpu');
      const own = process.env[TFJS_KERNELS_ENV] !== '1';
      if (own) installWebGpuKernels();
      // the device's dispatches, compilations and readbacks are counted on either path, and its kernels timed in the profiled call
      installGpuActivity();
      installWebGpuTimer(probe.device);
      watchDeviceLoss(probe.device);
      if (probe.isFallback) warnings.push(`WebGPU runs on a software adapter (${probe.device}): this is the CPU, not a GPU`);
      return { name, device: `${probe.device}${own ? "; the engine's WGSL kernels" : ''}`, isGpu: probe.isGpu, isFallback: probe.isFallback, warnings };
    }
    case 'tensorflow':
      return activateTensorflow(warnings);
  }
}

async function activateTensorflow(warnings: string[]): Promise<Omit<BackendInfo, 'reason' | 'initMs' | 'tfjsVersion'>> {
  // tfjs-node-gpu reserves nearly all GPU memory unless told to grow; it must be set before import
  process.env.TF_FORCE_GPU_ALLOW_GROWTH ??= 'true';
  const spec = isInstalled(TF_NODE_GPU) ? TF_NODE_GPU : isInstalled(TF_NODE) ? TF_NODE : null;
  if (spec === null) throw new AppError('BACKEND_UNAVAILABLE', probeTensorflow().detail, { hint: 'use --backend wasm or webgpu' });
  try {
    await import(spec);
  } catch (e) {
    throw new AppError('BACKEND_UNAVAILABLE', `${spec} is installed but failed to load: ${(e as Error).message}`);
  }
  await setBackendOrThrow('tensorflow');
  const usingGpu = (tf.backend() as unknown as { isUsingGpuDevice?: boolean }).isUsingGpuDevice === true;
  if (spec === TF_NODE_GPU && !usingGpu) {
    warnings.push('tfjs-node-gpu is installed but TensorFlow found no usable GPU (CUDA 11.2 + cuDNN 8.1 needed): it runs on the CPU');
  }
  return {
    name: 'tensorflow',
    device: usingGpu ? 'GPU (CUDA, tfjs-node-gpu)' : `CPU (libtensorflow, ${spec === TF_NODE_GPU ? 'tfjs-node-gpu without GPU' : 'tfjs-node'})`,
    isGpu: usingGpu,
    isFallback: spec === TF_NODE_GPU && !usingGpu,
    warnings,
  };
}

async function setBackendOrThrow(name: string): Promise<void> {
  const ok = await tf.setBackend(name);
  await tf.ready();
  if (!ok || tf.getBackend() !== name) {
    throw new AppError('BACKEND_UNAVAILABLE', `TensorFlow.js could not initialise the ${name} backend`);
  }
}

async function chooseAuto(): Promise<{ name: BackendName; reason: string }> {
  const tfn = probeTensorflow();
  if (tfn.available && tfn.isGpu) return { name: 'tensorflow', reason: 'auto: tfjs-node-gpu is installed (CUDA)' };
  const web = await probeWebGpu();
  if (web.available && !web.isFallback) return { name: 'webgpu', reason: `auto: hardware WebGPU adapter ${web.device}` };
  const why = web.available ? `the only WebGPU adapter is software (${web.device})` : 'no GPU backend is available';
  return { name: 'wasm', reason: `auto: ${why}; WebAssembly on the CPU` };
}

/** Activates a backend and says what computes. Throws BACKEND_UNAVAILABLE with a reason. */
export async function initBackend(choice: BackendChoice): Promise<BackendInfo> {
  const t0 = performance.now();
  const { name, reason } = choice === 'auto' ? await chooseAuto() : { name: choice, reason: `requested: ${choice}` };
  const active = await activate(name).catch(async (e: unknown) => {
    // auto never fails because a GPU path did: fall back to wasm and say so
    if (choice !== 'auto' || name === 'wasm') throw e;
    return { ...(await activate('wasm')), warnings: [`${name} failed to start (${(e as Error).message}); using wasm`] };
  });
  return { ...active, reason, tfjsVersion: tf.version_core, initMs: performance.now() - t0 };
}

export function tfjsVersion(): string {
  return tf.version_core;
}

export function engineMemory(): { numTensors: number; numBytes: number } {
  const m = tf.memory();
  return { numTensors: m.numTensors, numBytes: m.numBytes };
}

/**
 * tf.profile around fn, with the shared result object copied before anything can overwrite it; on
 * webgpu with timestamp queries also the GPU's kernels as spans on the host's clock (gpuProfile.ts).
 */
export async function profileKernels<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; kernels: unknown[]; peakBytes: number; deviceSpans?: DeviceSpan[]; deviceLane?: string }> {
  const timed = await profileOnGpuClock(fn, tfProfile);
  return timed ? { ...timed, deviceLane: webGpuLane() } : tfProfile(fn);
}

interface LostDevice {
  device: string;
  reason: string;
  message: string;
}

/** resolves when the active webgpu device is lost, with what Dawn said; null until a webgpu backend starts */
let deviceLost: Promise<LostDevice> | null = null;

function watchDeviceLoss(device: string): void {
  const gpu = (tf.backend() as unknown as { device: { lost: Promise<{ reason?: string; message?: string }> } }).device;
  deviceLost = gpu.lost.then((info) => ({ device, reason: info.reason ?? 'unknown', message: info.message ?? '' }));
}

/** How long a failure waits to learn whether the device was lost: Dawn settles the loss and the failed readback apart. */
const LOSS_SETTLES_MS = 250;

/**
 * A failure as the person running it should read it: where the webgpu device was lost, what the
 * engine was doing when the device went (Dawn's failed readback says nothing) and what to do; any
 * other failure unchanged.
 */
export async function explainBackendFailure(e: unknown): Promise<unknown> {
  if (deviceLost === null || e instanceof AppError) return e;
  let timer: NodeJS.Timeout | undefined;
  const lost = await Promise.race([deviceLost, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), LOSS_SETTLES_MS)))]);
  clearTimeout(timer);
  if (lost === null) return e;
  const detail = e instanceof Error && e.message ? ` (then: ${e.name}: ${e.message})` : '';
  return new AppError('DEVICE_LOST', `the GPU device was lost while the engine used it: ${lost.device}, ${lost.reason}${lost.message ? `: ${lost.message}` : ''}${detail}`, {
    hint: 'what the run measured before is kept; run it again (every run starts on a new device), check the driver (nvidia-smi, dmesg), or use --backend wasm',
  });
}

async function tfProfile<T>(fn: () => Promise<T>): Promise<{ result: T; kernels: unknown[]; peakBytes: number }> {
  let result: T | undefined;
  const info = await tf.profile(async () => {
    result = await fn();
    return [];
  });
  const kernels = info.kernels.map((k) => ({ ...k }));
  return { result: result as T, kernels, peakBytes: Number.isFinite(info.peakBytes) ? info.peakBytes : 0 };
}
