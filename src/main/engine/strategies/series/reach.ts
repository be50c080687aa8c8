/**
 * What the series' bound proves for one electrode, for `auto`'s cost model (model/autoDispatch.ts):
 * the plan the strategy itself makes from the encoding marks as the device holds them (float32),
 * and how many decoding spikes fall within its reach, by the same test the strategy applies. A
 * spike the count leaves out is one the series would hand to an exact strategy.
 */
import type { SeriesReach } from '../../model';
import { seriesFactorKind } from './factor';
import { planSeries, scaledRow } from './plan';

export interface ReachInputs {
  /** encoding marks, row-major (nEnc × D), as the fit holds them */
  encMarks: ArrayLike<number>;
  nEnc: number;
  waveformStd: number[];
  /** decoding marks, row-major (nDec × D) */
  decMarks: ArrayLike<number>;
  nDec: number;
  /** whether a factor of this kind is kept with the model (the fit built it) */
  factorKept: (kind: string) => boolean;
}

export function seriesReach(inputs: ReachInputs): SeriesReach {
  const plan = planSeries(Float32Array.from(inputs.encMarks), inputs.nEnc, inputs.waveformStd);
  let nNear = 0;
  if (!plan.direct) {
    const dec = Float32Array.from(inputs.decMarks);
    const row = new Float64Array(inputs.waveformStd.length);
    for (let k = 0; k < inputs.nDec; k++) if (Math.sqrt(scaledRow(plan, dec, k, row)) <= plan.maxDecodingRadius) nNear++;
  }
  return { nNear, nFeatures: plan.basis.nFeatures, order: plan.basis.order, factorKept: !plan.direct && inputs.factorKept(seriesFactorKind(plan)) };
}
