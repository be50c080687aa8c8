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
import type { Dataset } from '../../../shared/dataset';
import { electrodeArgs, ELECTRODE_SPAN } from '../../../shared/traceSpans';
import { LOG_EPS } from '../model';
import { type EncodingModel, type FittedElectrode, interpolatePosition } from '../fit';
import { safeLog } from '../hostMath';
import { floorThreshold, jointLogKdeAtSpikes } from './localJointKde';
import { positionLogKde } from './positionDensity';
import { decodingSpikes } from '../likelihood';
import { NULL_PROBE, type EngineProbe } from '../types';

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

/** One electrode's share of the local likelihood: its spike terms in their rows, its ground term (null with no encoding spikes) in every row. */
export interface LocalElectrodeTerms {
  electrode: number;
  rows: Int32Array;
  spikeTerms: Float64Array;
  ground: Float64Array | null;
}

/** Adds electrodes' terms to a local likelihood in the order given: the same order gives the same bits. */
export function addLocalTerms(ll: Float64Array, terms: LocalElectrodeTerms): void {
  const { rows, spikeTerms, ground } = terms;
  for (let k = 0; k < rows.length; k++) ll[rows[k]!] = ll[rows[k]!]! + spikeTerms[k]!;
  if (ground) for (let t = 0; t < ll.length; t++) ll[t] = ll[t]! - ground[t]!;
}

/**
 * The local likelihood's terms of electrodes `only` (every electrode by default), handed to `each`
 * in that order as each is done: a pool worker computes its own electrodes' terms.
 */
export async function localTerms(
  model: EncodingModel,
  dataset: Dataset,
  probe: EngineProbe,
  only: readonly number[],
  each: (terms: LocalElectrodeTerms) => void,
): Promise<void> {
  const q = model.positionDims;
  const nTime = dataset.time.length;
  if (nTime === 0) return;
  const posTime = dataset.decodingPositionTime ?? dataset.positionTime;
  const pos = dataset.decodingPosition ?? dataset.position;
  const xt = interpolatePosition(posTime, pos, q, dataset.time);
  const spikes: ElectrodeSpikes[] = only.map((e) => {
    const dec = decodingSpikes(dataset, e);
    return { rows: dec.rows, features: dec.features, positions: interpolatePosition(posTime, pos, q, dec.times) };
  });
  const occupancy = await occupancyAt(model, xt, spikes, probe);
  const occT = occupancy.subarray(0, nTime);
  let occAt = nTime;
  for (const [i, e] of only.entries()) {
    const fitted = model.electrodes[e]!;
    const { rows } = spikes[i]!;
    const occK = occupancy.subarray(occAt, occAt + rows.length);
    occAt += rows.length;
    await probe.span(ELECTRODE_SPAN, async () => {
      const logJ = await jointAtSpikes(model, fitted, spikes[i]!, occK, probe);
      const spikeTerms = logJ.map((logj, k) => safeLog(rateRatio(fitted.meanRate, logj, occK[k]!), LOG_EPS));
      let ground: Float64Array | null = null;
      if (fitted.nEnc > 0) {
        const logGround = await groundAt(model, fitted, xt, probe);
        ground = logGround.map((logg, t) => rateRatio(fitted.meanRate, logg, occT[t]!));
      }
      each({ electrode: e, rows, spikeTerms, ground });
    }, electrodeArgs(e, fitted.name));
    probe.progress((i + 1) / only.length, `electrode ${i + 1}/${only.length}`);
  }
}

/** The local log likelihood per row, every electrode's terms added in electrode order. */
export async function predictLocal(model: EncodingModel, dataset: Dataset, probe: EngineProbe = NULL_PROBE): Promise<Float64Array> {
  const ll = new Float64Array(dataset.time.length);
  await localTerms(model, dataset, probe, model.electrodes.map((_, e) => e), (terms) => addLocalTerms(ll, terms));
  return ll;
}
