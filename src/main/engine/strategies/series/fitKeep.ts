/**
 * What a fit for series keeps: the series factor in place of the linear position kernel (F × P
 * floats instead of E × P), only where the plan from the encoding marks alone covers them
 * (elsewhere series runs compensated, which never reads the linear kernel). Built with the ground
 * process in one fused pass where that runs, else from the kernel the fit has just built.
 */
import type { FitElectrode, FitKeep } from '../types';
import { buildSeriesFactor, buildSeriesFactorWork, canFuseSeriesFit, groundDensityAndSeriesFactor, seriesFactorBytes, seriesFactorKind } from './factor';
import { planSeries, seriesCoversEncoding } from './plan';

export function seriesFitKeep({ encFeatures, nEnc, waveformStd, nBins }: FitElectrode): FitKeep {
  if (nEnc === 0) return { wanted: false };
  // the series strategy plans from the marks as the device holds them (float32), so the fit does too
  const encHost = Float32Array.from(encFeatures);
  const plan = planSeries(encHost, nEnc, waveformStd);
  const kind = seriesFactorKind(plan);
  const wanted = seriesCoversEncoding(plan);
  const work = buildSeriesFactorWork(plan, nEnc, nBins);
  if (canFuseSeriesFit(nBins)) {
    return {
      wanted,
      fused: {
        bytes: seriesFactorBytes(plan, nBins),
        work,
        build: (positions, centers, std, flush) => {
          const { colMax, colSum, factor } = groundDensityAndSeriesFactor(positions, centers, std, flush, plan, encHost);
          return { colMax, colSum, kept: { kind, factor } };
        },
      },
    };
  }
  return { wanted, fromKernel: { span: 'series-factor', work, build: (kernel) => ({ kind, factor: buildSeriesFactor(plan, encHost, nEnc, kernel) }) } };
}
