/**
 * The seeds' JAX measurements that have no direct meaning for a TensorFlow.js engine, and what the
 * report shows instead, so a reader of the report knows why a familiar number is missing.
 */
import type { BackendInfo } from '../../../shared/report';

export function notApplicableFor(backend: BackendInfo): string[] {
  const out = [
    'HLO operation counts: TensorFlow.js has no compiler IR to inspect; the kernel breakdown ' +
      '(kernel name, calls, time, bytes) of one profiled call stands in for them.',
    'JIT compilation and its per-shape cache: TensorFlow.js runs kernels eagerly; the cold first call ' +
      'carries kernel initialization and, on webgpu, shader compilation, and is reported apart from warm repeats.',
    'block_until_ready: every fit and predict returns host arrays, so each timing already includes the device work.',
    'Line-by-line memory profiling (memory_profiler): replaced by tensor bytes and counts, the engine ' +
      'process RSS sampled from outside at 20 Hz, and the peak tensor bytes of a profiled call.',
  ];
  if (!backend.isGpu) {
    out.push(`GPU memory: the ${backend.name} backend computes on the CPU, so there is no device memory to report.`);
  }
  return out;
}
