/**
 * `auto`'s probe: before a decode commits to its strategies, the candidates whose bounds can hold
 * (NLD's dispatch, and series) are timed on a slice of the run's own data: its largest electrode,
 * SLICE_BLOCKS blocks of its decoding spikes and only the rows they fall in, on the fitted model,
 * through the same engine (the pool where the run has one). Each candidate runs twice and its
 * second call counts (the first builds what a windowed decode keeps between windows). The faster
 * one is what `auto` then follows wherever series' bound holds (engine/model, resolveFastestStrategy).
 * At most MAX_SHARE of the decode's work (encoding × decoding spike pairs), else no probe: a
 * decode too small to afford one takes the cost model's choice.
 */
import type { StrategyName } from '../../../shared/config';
import type { Dataset, ElectrodeData } from '../../../shared/dataset';
import { formatMs } from '../../../shared/format';
import { lowerBound, upperBound } from '../../../shared/sortedSearch';
import { resolveNldDispatch, type ProbedStrategy, type StrategyOptions } from '../../engine/model';
import type { AutoProbeRecord } from '../../../shared/report';
import { autoProbeSentence } from '../../../shared/autoProbeText';
import type { EngineProbe } from '../../engine';
import type { EngineDeps, FittedModel } from '../session';
import { INSTANT } from '../../../shared/traceInstants';

/** blocks of the probe electrode's decoding spikes each candidate decodes, at most */
const SLICE_BLOCKS = 2;
/** the probe's share of the decode's work (encoding × decoding spike pairs) at most: four calls of the slice */
const MAX_SHARE = 0.03;
const CALLS = 4;

/** What the probe measured (as decode.json keeps it), and the verdict `auto` follows. */
export interface StrategyProbe {
  record: AutoProbeRecord;
  probed: ProbedStrategy;
}

/** The electrode with the most encoding × decoding spikes inside the grid (or null), and the decode's pairs in all. */
function probeElectrode(dataset: Dataset): { e: number | null; totalPairs: number } {
  const [t0, t1] = [dataset.time[0] ?? NaN, dataset.time[dataset.time.length - 1] ?? NaN];
  let best: number | null = null;
  let [bestWork, totalPairs] = [0, 0];
  dataset.electrodes.forEach((el, e) => {
    let inGrid = 0;
    for (const t of el.decodingSpikeTimes) if (t >= t0 && t <= t1) inGrid++;
    const work = el.encodingSpikeTimes.length * inGrid;
    totalPairs += work;
    if (work > bestWork) [best, bestWork] = [e, work];
  });
  return { e: best, totalPairs };
}

/**
 * The dataset cut to the rows holding electrode e's first `count` in-grid decoding spikes, with
 * the other electrodes' decoding spikes left out: every electrode stays, so the fitted model's
 * indices hold.
 */
export function probeSlice(dataset: Dataset, e: number, count: number): { slice: Dataset; spikes: number } | null {
  const el = dataset.electrodes[e]!;
  const time = dataset.time;
  const first = lowerBound(el.decodingSpikeTimes, time[0]!);
  const last = Math.min(el.decodingSpikeTimes.length, first + count) - 1;
  if (last < first || el.decodingSpikeTimes[last]! > time[time.length - 1]!) return null;
  const r0 = Math.max(0, lowerBound(time, el.decodingSpikeTimes[first]!) - 1);
  const r1 = Math.min(time.length, lowerBound(time, el.decodingSpikeTimes[last]!) + 1);
  const rows = time.subarray(r0, r1);
  const none = (x: ElectrodeData): ElectrodeData => ({ ...x, decodingSpikeTimes: new Float64Array(0), decodingFeatures: new Float64Array(0) });
  const s0 = lowerBound(el.decodingSpikeTimes, rows[0]!);
  const s1 = upperBound(el.decodingSpikeTimes, rows[rows.length - 1]!);
  const mine: ElectrodeData = {
    ...el,
    decodingSpikeTimes: el.decodingSpikeTimes.subarray(s0, s1),
    decodingFeatures: el.decodingFeatures.subarray(s0 * el.nFeatures, s1 * el.nFeatures),
  };
  return { slice: { ...dataset, time: rows, electrodes: dataset.electrodes.map((x, i) => (i === e ? mine : none(x))) }, spikes: s1 - s0 };
}

/**
 * The probe as an instant on the trace (its tip names it), with what decode.json keeps of it, so a
 * run's timeline says what `auto` measured as a decode's summary does; and in a sentence to `log`
 * where the caller keeps a log the user reads.
 */
export function markProbe(probe: Pick<EngineProbe, 'instant'>, measured: StrategyProbe, log?: (message: string) => void): void {
  const { record } = measured;
  probe.instant(INSTANT.autoProbe, { electrode: record.electrode, spikes: record.spikes, rows: record.rows, faster: record.faster, probeMs: record.probeMs, summary: record.summary });
  log?.(autoProbeSentence(record));
}

/**
 * Times NLD's dispatch and series on the slice; null where there is nothing to compare (no
 * electrode with spikes on both sides, or NLD's dispatch is series' only rival for nothing).
 */
export async function probeAutoStrategy(
  deps: Pick<EngineDeps, 'predictNonlocal'>, model: FittedModel, dataset: Dataset, options: StrategyOptions, signal?: AbortSignal,
): Promise<StrategyProbe | null> {
  const { e, totalPairs } = probeElectrode(dataset);
  if (e === null) return null;
  // as many spikes as the share allows, up to SLICE_BLOCKS blocks; less than one block is not worth measuring
  const block = Math.max(1, options.blockSize);
  const allowed = Math.floor((MAX_SHARE * totalPairs) / (CALLS * dataset.electrodes[e]!.encodingSpikeTimes.length));
  if (allowed < block) return null;
  const found = probeSlice(dataset, e, Math.min(SLICE_BLOCKS * block, allowed));
  if (found === null || found.spikes === 0) return null;
  const el = found.slice.electrodes[e]!;
  const sizes = {
    nEnc: el.encodingSpikeTimes.length, nDec: found.spikes, nBins: dataset.placeBinCenters.length / dataset.positionDims,
    nFeatures: el.nFeatures, positionDims: dataset.positionDims, nTime: found.slice.time.length,
  };
  const dispatch = resolveNldDispatch(sizes, options).strategy;
  const t0 = performance.now();
  const candidates: AutoProbeRecord['candidates'] = [];
  for (const strategy of [dispatch, 'series'] as StrategyName[]) {
    const o = { ...options, signal, keepPositionKernels: true };
    await deps.predictNonlocal(model, found.slice, strategy, o);
    const t = performance.now();
    await deps.predictNonlocal(model, found.slice, strategy, o);
    candidates.push({ strategy, ms: performance.now() - t });
  }
  const [d, s] = candidates as [AutoProbeRecord['candidates'][number], AutoProbeRecord['candidates'][number]];
  const summary = `series ${formatMs(s.ms)}, ${dispatch} ${formatMs(d.ms)} on ${el.name}'s first ${found.spikes} decoding spikes`;
  const faster: ProbedStrategy['faster'] = s.ms < d.ms ? 'series' : 'dispatch';
  return {
    record: { electrode: el.name, spikes: found.spikes, rows: found.slice.time.length, candidates, faster, summary, probeMs: performance.now() - t0 },
    probed: { faster, summary },
  };
}
