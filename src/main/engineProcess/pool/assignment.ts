/**
 * Which worker computes which electrode: largest first onto the least-loaded worker (LPT), by an
 * estimate of each electrode's fit and predict work. Deterministic for a dataset and a worker
 * count; the likelihood does not depend on it (terms are summed in electrode order), only the
 * balance does. Each worker then takes its electrodes in index order, so they finish roughly in
 * the order the sum consumes them.
 */
import type { Dataset } from '../../../shared/dataset';

/** fit ~ E·P (ground-process kernel), predict ~ S·E·(P + D) (mark kernel and the reduction) */
export function electrodeCost(dataset: Dataset, e: number): number {
  const el = dataset.electrodes[e]!;
  const nBins = dataset.placeBinCenters.length / dataset.positionDims;
  const nEnc = el.encodingSpikeTimes.length;
  const nDec = el.decodingSpikeTimes.length;
  return nEnc * nBins + nDec * nEnc * (nBins + el.nFeatures) + 1;
}

export function assignElectrodes(dataset: Dataset, workers: number): number[][] {
  const order = dataset.electrodes.map((_, e) => e).map((e) => ({ e, cost: electrodeCost(dataset, e) }));
  order.sort((a, b) => b.cost - a.cost || a.e - b.e);
  const load = new Array<number>(workers).fill(0);
  const lists: number[][] = Array.from({ length: workers }, () => []);
  for (const { e, cost } of order) {
    let w = 0;
    for (let i = 1; i < workers; i++) if (load[i]! < load[w]!) w = i;
    load[w] = load[w]! + cost;
    lists[w]!.push(e);
  }
  return lists.map((l) => l.sort((a, b) => a - b));
}
