/**
 * Encoding fit (kde-spec §3): occupancy, per-electrode mean rates, ground-process intensity and its
 * sum. As the model layer does (spec §4.7), only is_training samples are fit on, encoding spikes
 * must fall in a training run widened by one sample interval, and positions with NaN are dropped
 * before the fit unless the caller asks for the likelihood function's own semantics ('propagate').
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Dataset } from '../../shared/dataset';
import { EPS } from './model';
import { dropNanRows, gather, inBoundsIndices, insideWindows, interpolatePosition, stdVector, trainingSelection } from './hostMath';
import { toTensor2d } from './kernels';
import { logKde } from './logKde';
import { NULL_PROBE, type EngineProbe } from './types';

export interface FittedElectrode {
  name: string;
  nFeatures: number;
  nEnc: number;
  waveformStd: number[];
  /** interpolated position of each in-bounds encoding spike, (nEnc × q) */
  encPositions: Float64Array;
  /** in-bounds encoding marks, (nEnc × nFeatures) */
  encFeatures: Float64Array;
  meanRate: number;
  /** log ground-process density log g_e at each bin (−Infinity when nEnc = 0) */
  logGroundDensity: Float64Array;
  /** Λ_e: clipped ground-process intensity per bin */
  groundProcessIntensity: Float64Array;
  /** device copies, null when the electrode has no encoding spikes */
  encPositionsTensor: tf.Tensor2D | null;
  encFeaturesTensor: tf.Tensor2D | null;
}

export interface EncodingModel {
  nBins: number;
  positionDims: number;
  positionStd: number[];
  /** interior bin centres, host (P × q) and device */
  centers: Float64Array;
  centersTensor: tf.Tensor2D;
  /** the position samples the occupancy KDE was built on (N × q) */
  occupancySamples: Float64Array;
  logOccupancy: Float64Array;
  occupancy: Float64Array;
  meanRates: Float64Array;
  summedGroundProcessIntensity: Float64Array;
  electrodes: FittedElectrode[];
  droppedNanPositions: number;
  dispose(): void;
}

export interface FitOptions {
  /** 'drop' (model layer, default) or 'propagate' (likelihood function called directly) */
  nanPositions?: 'drop' | 'propagate';
}

export async function fitEncodingModel(
  dataset: Dataset,
  probe: EngineProbe = NULL_PROBE,
  options: FitOptions = {},
): Promise<EncodingModel> {
  const q = dataset.positionDims;
  const positionStd = stdVector(dataset.params.positionStd, q, 'position_std');
  const training = dataset.isTraining
    ? trainingSelection(dataset.positionTime, dataset.position, q, dataset.isTraining)
    : null;
  const encodingTime = training?.positionTime ?? dataset.positionTime;
  const encodingPosition = training?.position ?? dataset.position;
  const track =
    (options.nanPositions ?? 'drop') === 'drop'
      ? dropNanRows(encodingTime, encodingPosition, q)
      : { positionTime: encodingTime, position: encodingPosition, dropped: 0 };
  const n = track.positionTime.length;
  const centers = dataset.placeBinCenters;
  const nBins = centers.length / q;

  const logOccupancy = await probe.span('occupancy', () => logKde(track.position, centers, q, positionStd), {
    samples: n,
    bins: nBins,
  });
  const occupancy = logOccupancy.map(Math.exp);

  const tStart = n > 0 ? track.positionTime[0]! : NaN;
  const tEnd = n > 0 ? track.positionTime[n - 1]! : NaN;
  const electrodes: FittedElectrode[] = [];
  const summed = new Float64Array(nBins);
  const tensors: tf.Tensor[] = [];
  try {
    for (let e = 0; e < dataset.electrodes.length; e++) {
      const el = dataset.electrodes[e]!;
      const fitted = await probe.span(
        `electrode ${e}`,
        async () => {
          const selected = training ? insideWindows(el.encodingSpikeTimes, training.windows) : null;
          const candidates = selected ? gather(el.encodingSpikeTimes, selected) : el.encodingSpikeTimes;
          const candidateFeatures = selected ? gather(el.encodingFeatures, selected, el.nFeatures) : el.encodingFeatures;
          const keep = inBoundsIndices(candidates, tStart, tEnd);
          const times = gather(candidates, keep);
          const encFeatures = gather(candidateFeatures, keep, el.nFeatures);
          const encPositions = keep.length > 0 ? interpolatePosition(track.positionTime, track.position, q, times) : new Float64Array(0);
          const meanRate = keep.length / Math.max(n, 1);
          const logGroundDensity = await probe.span('ground-process', () =>
            logKde(encPositions, centers, q, positionStd),
          );
          const gpi = new Float64Array(nBins);
          for (let p = 0; p < nBins; p++) {
            const occ = occupancy[p]!;
            let ratio: number;
            if (occ > 0) {
              const g = Math.exp(logGroundDensity[p]!);
              ratio = g === 0 || Number.isNaN(g) ? g : Math.exp(logGroundDensity[p]! - logOccupancy[p]!);
            } else {
              ratio = EPS;
            }
            const term = meanRate * ratio;
            gpi[p] = Number.isNaN(term) ? NaN : Math.max(term, EPS);
          }
          return {
            name: el.name,
            nFeatures: el.nFeatures,
            nEnc: keep.length,
            waveformStd: stdVector(dataset.params.waveformStd, el.nFeatures, 'waveform_std', el.name),
            encPositions,
            encFeatures,
            meanRate,
            logGroundDensity,
            groundProcessIntensity: gpi,
            encPositionsTensor: null as tf.Tensor2D | null,
            encFeaturesTensor: null as tf.Tensor2D | null,
          };
        },
        { electrode: el.name },
      );
      if (fitted.nEnc > 0) {
        // A NaN spike position only arises when the occupancy is NaN everywhere, in which case
        // every spike term is floored whatever the kernel says; zeros keep the device math finite.
        const pos = fitted.encPositions.map((v) => (Number.isNaN(v) ? 0 : v));
        fitted.encPositionsTensor = toTensor2d(pos, fitted.nEnc, q);
        fitted.encFeaturesTensor = toTensor2d(fitted.encFeatures, fitted.nEnc, fitted.nFeatures);
        tensors.push(fitted.encPositionsTensor, fitted.encFeaturesTensor);
      }
      for (let p = 0; p < nBins; p++) summed[p] = summed[p]! + fitted.groundProcessIntensity[p]!;
      electrodes.push(fitted);
    }
  } catch (err) {
    tf.dispose(tensors);
    throw err;
  }
  const centersTensor = toTensor2d(centers, nBins, q);
  tensors.push(centersTensor);
  return {
    nBins,
    positionDims: q,
    positionStd,
    centers,
    centersTensor,
    occupancySamples: track.position,
    logOccupancy,
    occupancy,
    meanRates: Float64Array.from(electrodes.map((e) => e.meanRate)),
    summedGroundProcessIntensity: summed,
    electrodes,
    droppedNanPositions: track.dropped,
    dispose: () => tf.dispose(tensors),
  };
}
