/**
 * The structured products on posteriorKernels.wat: the same blocks in the same order as the plain
 * loops of transitionProducts.ts, each output adding the same terms in the same order, so the
 * results have the same bits; only the band's inner loops run eight outputs at a time. A rank-one
 * block's row mass (f @ A) and dot product (A @ r) are sums one term after the other, so they are
 * taken first, several side by side in one pass, and each block then adds its own in block order;
 * blocks leaving the same rows share one mass. A convolution block runs its own passes on the
 * workspace's vectors, in its place among the others.
 */
import { ConvolutionScratch, convolutionBackward, convolutionForward } from './convolutionProduct';
import type { KernelPlan } from './kernelPlan';
import type { KernelWorkspace } from './posteriorKernels';
import type { TransitionProduct } from './transitionProducts';

export class KernelProduct implements TransitionProduct {
  private readonly n: number;
  private readonly masses: Float64Array;
  private readonly dots: Float64Array;
  private readonly scratch = new ConvolutionScratch();

  constructor(private readonly plan: KernelPlan, private readonly workspace: KernelWorkspace) {
    this.n = plan.size;
    this.masses = new Float64Array(plan.masses);
    this.dots = new Float64Array(plan.dotQuads.reduce((sum, q) => sum + q.slots.length, 0));
  }

  forward(f: Float32Array, offset: number, out: Float64Array): void {
    const { plan, workspace: w, n, masses } = this;
    w.hold(plan);
    const { kernels: k, f: fIn, acc, results, fAt, accAt, imageAt } = w;
    fIn.set(f.subarray(offset, offset + n));
    for (const pair of plan.massPairs) {
      k.sumPairF32(fAt + 4 * pair.rowStarts[0], fAt + 4 * pair.rowStarts[1], pair.rows, w.resultsAt);
      masses[pair.slots[0]] = results[0]!;
      masses[pair.slots[1]] = results[1]!;
    }
    acc.fill(0);
    for (const s of plan.steps) {
      if (s.kind === 'band') {
        k.bandForward(accAt + 8 * s.colStart, fAt + 4 * s.rowStart, imageAt + 4 * s.diagAt, 4 * s.stride, s.width, s.dMin, s.cols);
        continue;
      }
      if (s.kind === 'convolution') {
        convolutionForward(s.block, fIn, 0, this.scratch, acc);
        continue;
      }
      const mass = masses[s.massSlot]!;
      if (mass !== 0) k.addScaled(accAt + 8 * s.colStart, imageAt + 4 * s.valuesAt, s.cols, mass);
    }
    out.set(acc);
  }

  backward(r: Float64Array, out: Float64Array): void {
    const { plan, workspace: w, n, dots } = this;
    w.hold(plan);
    const { kernels: k, r: rIn, acc, results, rAt, accAt, imageAt } = w;
    if (r.length === n) rIn.set(r);
    else for (let j = 0; j < n; j++) rIn[j] = r[j]!;
    for (const q of plan.dotQuads) {
      const v = q.valuesAt;
      k.dotQuadF32F64(rAt + 8 * q.colStart, q.cols, imageAt + 4 * v[0], imageAt + 4 * v[1], imageAt + 4 * v[2], imageAt + 4 * v[3], w.resultsAt);
      for (let t = 0; t < q.slots.length; t++) dots[q.slots[t]!] = results[t]!;
    }
    acc.fill(0);
    for (const s of plan.steps) {
      if (s.kind === 'band') {
        k.bandBackward(accAt + 8 * s.rowStart, rAt + 8 * s.colStart, imageAt + 4 * s.diagAt, 4 * s.stride, s.width, s.dMin, s.rows);
        continue;
      }
      if (s.kind === 'convolution') {
        convolutionBackward(s.block, rIn, this.scratch, acc);
        continue;
      }
      k.addConstant(accAt + 8 * s.rowStart, s.rows, dots[s.dotSlot]!);
    }
    out.set(acc);
  }
}
