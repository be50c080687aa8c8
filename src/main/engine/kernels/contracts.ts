/**
 * What a kernel's result is held to against the float64 reference, whichever backend computes it:
 * the one suite of kernel contracts (kernels/contracts.test.ts) runs each kernel with a contract
 * here on every backend that has it, and on the op graph the others run instead.
 */
import { FUSED_LIKELIHOOD_KERNEL, GAUSS_KERNEL, KDE_COLUMN_SUMS_KERNEL, type EngineKernelName } from './names';

export interface KernelContract {
  /** allclose: |got − want| ≤ atol + rtol·|want| on every element */
  rtol: number;
  atol: number;
}

export const KERNEL_CONTRACTS: Partial<Record<EngineKernelName, KernelContract>> = {
  // the spike terms a likelihood sums: the parity tests' tolerance on the likelihood itself
  [FUSED_LIKELIHOOD_KERNEL]: { rtol: 1e-4, atol: 1e-4 },
  // per part the largest log kernel (atol) and the rescaled sum (rtol): the log density from them within 1e-4
  [KDE_COLUMN_SUMS_KERNEL]: { rtol: 1e-4, atol: 1e-4 },
  // log K within 1e-4 (its float32 differences and squares), K within 1e-4 of itself
  [GAUSS_KERNEL]: { rtol: 1e-4, atol: 1e-4 },
};
