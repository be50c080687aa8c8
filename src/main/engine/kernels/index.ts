/**
 * The engine's kernels, backend-neutral: each kernel's name, attributes and what it must compute
 * (names.ts), and its tolerance against the float64 reference (contracts.ts). The backends'
 * folders implement them (simd/ for wasm, webgpu/ for WebGPU) and say which shapes they take;
 * engine/ops ask for them by name, through ops/fusedKernel.ts, and never see a backend.
 *
 * Imports nothing: names, types and numbers only.
 */
export * from './names';
export { KERNEL_CONTRACTS, type KernelContract } from './contracts';
