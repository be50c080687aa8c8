/**
 * The structured products on posteriorKernels.wat: the same blocks in the same order as the plain
 * loops of transitionProducts.ts, each output adding the same terms in the same order, so the
 * results have the same bits; only the band's inner loops run eight outputs at a time. A block's
 * row mass (f @ A) is summed once for all the blocks that leave the same rows.
 */
import type { KernelPlan } from './kernelPlan';
import type { KernelWorkspace } from './posteriorKernels';
import type { TransitionProduct } from './transitionProducts';

export class KernelProduct implements TransitionProduct {
  private readonly n: number;

  constructor(private readonly plan: KernelPlan, private readonly workspace: KernelWorkspace) {
    this.n = plan.size;
  }

  forward(f: Float32Array, offset: number, out: Float64Array): void {
    const { plan, workspace: w, n } = this;
    w.hold(plan);
    const { kernels: k, f: fIn, acc, fAt, accAt, imageAt } = w;
    for (let i = 0; i < n; i++) fIn[i] = f[offset + i]!;
    acc.fill(0);
    let massRows = -1;
    let massStart = -1;
    let mass = 0;
    for (const s of plan.steps) {
      if (s.kind === 'band') {
        k.bandForward(accAt + 8 * s.colStart, fAt + 4 * s.rowStart, imageAt + 4 * s.diagAt, 4 * s.stride, s.width, s.dMin, s.cols);
        continue;
      }
      if (s.rowStart !== massStart || s.rows !== massRows) {
        massStart = s.rowStart;
        massRows = s.rows;
        mass = k.sumF32(fAt + 4 * s.rowStart, s.rows);
      }
      if (mass !== 0) k.addScaled(accAt + 8 * s.colStart, imageAt + 4 * s.valuesAt, s.cols, mass);
    }
    out.set(acc);
  }

  backward(r: Float64Array, out: Float64Array): void {
    const { plan, workspace: w, n } = this;
    w.hold(plan);
    const { kernels: k, r: rIn, acc, rAt, accAt, imageAt } = w;
    if (r.length === n) rIn.set(r);
    else for (let j = 0; j < n; j++) rIn[j] = r[j]!;
    acc.fill(0);
    for (const s of plan.steps) {
      if (s.kind === 'band') {
        k.bandBackward(accAt + 8 * s.rowStart, rAt + 8 * s.colStart, imageAt + 4 * s.diagAt, 4 * s.stride, s.width, s.dMin, s.rows);
        continue;
      }
      const dot = k.dotF32F64(imageAt + 4 * s.valuesAt, rAt + 8 * s.colStart, s.cols);
      k.addConstant(accAt + 8 * s.rowStart, s.rows, dot);
    }
    out.set(acc);
  }
}
