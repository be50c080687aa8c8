/**
 * Local likelihood (kde-spec §4.6): the model evaluated at the animal's own interpolated position
 * instead of on the bin grid. Output (T,): spike terms safe_log(μ·J/π) in their rows (floor via
 * safe_log), minus μ·g/π in every row with no floor. Densities are computed in log space and
 * exponentiated on the host in float64, so zeros appear where the reference's do.
 *
 * The occupancy π and each electrode's ground density g are smooth functions of position, needed at
 * every row and every spike: positionDensity/ tabulates them within a proven bound (one occupancy
 * tabulation for the rows and every electrode's spikes), where evaluating them pair by pair would
 * cost (position samples × rows) kernels. The joint KDE J is per spike and mark, pair by pair over
 * the encoding spikes near the spike's position (localJointKde.ts).
 */
import type { Dataset } from '../../shared/dataset';
import { electrodeArgs, ELECTRODE_SPAN } from '../../shared/traceSpans';
import { LOG_EPS } from './model';
import type { EncodingModel, FittedElectrode } from './fit';
import { safeLog } from './logSpace';
import { interpolatePosition } from './positionTrack';
import { floorThreshold, jointLogKdeAtSpikes } from './localJointKde';
import { positionLogKde } from './positionDensity';
import { decodingSpikes } from './predict';
import { NULL_PROBE, type EngineProbe } from './types';

/** μ·(density / occupancy), 0 where the occupancy is 0 (the reference's guard), from their logs. */
function rateRatio(meanRate: number, logDensity: number, logOccupancy: number): number {
  const occupancy = Math.exp(logOccupancy);
  return occupancy > 0 ? meanRate * (Math.exp(logDensity) / occupancy) : 0;
}

interface ElectrodeSpikes {
  rows: Int32Array;
  features: Float64Array;
  /** the interpolated position at each spike (S × q) */
  positions: Float64Array;
}

/** The occupancy (log) at every row's position and then at each electrode's spikes, in one evaluation. */
async function occupancyAt(model: EncodingModel, xt: Float64Array, spikes: ElectrodeSpikes[], probe: EngineProbe): Promise<Float64Array> {
  const q = model.positionDims;
  const queries = new Float64Array(xt.length + spikes.reduce((n, s) => n + s.positions.length, 0));
  queries.set(xt);
  let at = xt.length;
  for (const s of spikes) {
    queries.set(s.positions, at);
    at += s.positions.length;
  }
  const args: Record<string, unknown> = { points: queries.length / q, samples: model.occupancySamples.length / q };
  return probe.span('occupancy at positions', async () => {
    const density = await positionLogKde(model.occupancySamples, queries, q, model.positionStd);
    args.exactPoints = density.exactPoints;
    return density.log;
  }, args);
}

/** log J at each of the electrode's spikes (−∞ with no encoding spikes). */
async function jointAtSpikes(model: EncodingModel, fitted: FittedElectrode, spikes: ElectrodeSpikes, occK: Float64Array, probe: EngineProbe): Promise<Float64Array> {
  const s = spikes.rows.length;
  if (fitted.nEnc === 0) return new Float64Array(s).fill(-Infinity);
  const floorBelow = Float64Array.from(occK, (logOcc) => floorThreshold(fitted.meanRate, logOcc));
  const args: Record<string, unknown> = { spikes: s, encoding: fitted.nEnc };
  return probe.span('joint KDE at spikes', async () => {
    const result = await jointLogKdeAtSpikes({
      encPositions: fitted.encPositions, encFeatures: fitted.encFeatures, nEnc: fitted.nEnc, positions: spikes.positions, features: spikes.features,
      nSpikes: s, q: model.positionDims, nFeatures: fitted.nFeatures, positionStd: model.positionStd, waveformStd: fitted.waveformStd, floorBelow,
    });
    Object.assign(args, { pairs: result.pairs, fullSpikes: result.fullSpikes });
    return result.log;
  }, args);
}

/** The electrode's ground density (log) at every row's position. */
async function groundAt(model: EncodingModel, fitted: FittedElectrode, xt: Float64Array, probe: EngineProbe): Promise<Float64Array> {
  const args: Record<string, unknown> = { points: xt.length / model.positionDims, encoding: fitted.nEnc };
  return probe.span('ground at positions', async () => {
    const density = await positionLogKde(fitted.encPositions, xt, model.positionDims, model.positionStd);
    args.exactPoints = density.exactPoints;
    return density.log;
  }, args);
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
  const spikes: ElectrodeSpikes[] = model.electrodes.map((_, e) => {
    const dec = decodingSpikes(dataset, e);
    return { rows: dec.rows, features: dec.features, positions: interpolatePosition(posTime, pos, q, dec.times) };
  });
  const occupancy = await occupancyAt(model, xt, spikes, probe);
  const occT = occupancy.subarray(0, nTime);
  let occAt = nTime;
  for (let e = 0; e < model.electrodes.length; e++) {
    const fitted = model.electrodes[e]!;
    const electrode = spikes[e]!;
    const s = electrode.rows.length;
    const occK = occupancy.subarray(occAt, occAt + s);
    occAt += s;
    await probe.span(ELECTRODE_SPAN, async () => {
      const logJ = await jointAtSpikes(model, fitted, electrode, occK, probe);
      for (let k = 0; k < s; k++) ll[electrode.rows[k]!] = ll[electrode.rows[k]!]! + safeLog(rateRatio(fitted.meanRate, logJ[k]!, occK[k]!), LOG_EPS);
      if (fitted.nEnc === 0) return;
      const ground = await groundAt(model, fitted, xt, probe);
      for (let t = 0; t < nTime; t++) ll[t] = ll[t]! - rateRatio(fitted.meanRate, ground[t]!, occT[t]!);
    }, electrodeArgs(e, fitted.name));
    probe.progress((e + 1) / model.electrodes.length, `electrode ${e + 1}/${model.electrodes.length}`);
  }
  return ll;
}
