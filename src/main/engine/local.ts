/**
 * Local likelihood (kde-spec §4.6): the model evaluated at the animal's own interpolated position
 * instead of on the bin grid. Output (T,): spike terms safe_log(μ·J/π) in their rows (floor via
 * safe_log), minus μ·g/π in every row with no floor. Densities are computed in log space on the
 * device and exponentiated on the host in float64, so zeros appear where the reference's do.
 */
import type { Dataset } from '../../shared/dataset';
import { LOG_EPS } from './model';
import type { EncodingModel } from './fit';
import { safeLog } from './logSpace';
import { interpolatePosition } from './positionTrack';
import { logKde } from './logKde';
import { decodingSpikes } from './predict';
import { NULL_PROBE, type EngineProbe } from './types';

function interleave(a: Float64Array, qa: number, b: Float64Array, qb: number, n: number): Float64Array {
  const out = new Float64Array(n * (qa + qb));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < qa; j++) out[i * (qa + qb) + j] = a[i * qa + j]!;
    for (let j = 0; j < qb; j++) out[i * (qa + qb) + qa + j] = b[i * qb + j]!;
  }
  return out;
}

export async function predictLocal(
  model: EncodingModel,
  dataset: Dataset,
  probe: EngineProbe = NULL_PROBE,
): Promise<Float64Array> {
  const q = model.positionDims;
  const time = dataset.time;
  const nTime = time.length;
  const posTime = dataset.decodingPositionTime ?? dataset.positionTime;
  const pos = dataset.decodingPosition ?? dataset.position;
  const ll = new Float64Array(nTime);
  if (nTime === 0) return ll;
  const xt = interpolatePosition(posTime, pos, q, time);
  const occT = (await logKde(model.occupancySamples, xt, q, model.positionStd)).map(Math.exp);

  for (let e = 0; e < model.electrodes.length; e++) {
    const fitted = model.electrodes[e]!;
    await probe.span(
      `electrode ${e}`,
      async () => {
        const dec = decodingSpikes(dataset, e);
        const s = dec.times.length;
        if (s > 0) {
          const xk = interpolatePosition(posTime, pos, q, dec.times);
          const occK = (await logKde(model.occupancySamples, xk, q, model.positionStd)).map(Math.exp);
          const logJ =
            fitted.nEnc > 0
              ? await logKde(
                  interleave(fitted.encPositions, q, fitted.encFeatures, fitted.nFeatures, fitted.nEnc),
                  interleave(xk, q, dec.features, fitted.nFeatures, s),
                  q + fitted.nFeatures,
                  [...model.positionStd, ...fitted.waveformStd],
                )
              : new Float64Array(s).fill(-Infinity);
          for (let k = 0; k < s; k++) {
            const occ = occK[k]!;
            const ratio = occ > 0 ? Math.exp(logJ[k]!) / occ : 0;
            ll[dec.rows[k]!] = ll[dec.rows[k]!]! + safeLog(fitted.meanRate * ratio, LOG_EPS);
          }
        }
        if (fitted.nEnc > 0) {
          const g = await logKde(fitted.encPositions, xt, q, model.positionStd);
          for (let t = 0; t < nTime; t++) {
            const occ = occT[t]!;
            const ratio = occ > 0 ? Math.exp(g[t]!) / occ : 0;
            ll[t] = ll[t]! - fitted.meanRate * ratio;
          }
        }
      },
      { electrode: fitted.name },
    );
    probe.progress((e + 1) / model.electrodes.length, `local likelihood, electrode ${e + 1}/${model.electrodes.length}`);
  }
  return ll;
}
