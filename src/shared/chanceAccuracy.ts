/**
 * The decoding accuracy of guessing: a decoder that picks one of the interior place bins uniformly
 * at random, whatever the spikes say. Marks that carry no place information decode near this level,
 * so a report's median error and share within the radius only mean something beside it.
 */

/** Rows decoded within this distance of the true position count as right (position units); the report's accuracy uses the same radius. */
export const CHANCE_RADIUS = 10;
/** Pairs of (row, bin) pooled for the median at most: evenly spaced rows stand for the rest on long recordings. */
const MAX_PAIRS = 1_000_000;

export interface ChanceAccuracy {
  /** true positions the level was computed over */
  rows: number;
  /** median distance between a uniformly guessed bin centre and the true position */
  medianAbsError: number;
  /** chance that a uniformly guessed bin centre lies within CHANCE_RADIUS of the true position */
  shareWithin10: number;
}

function sortedMedian(sorted: Float64Array): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Chance level for true positions (n × positionDims, row-major; a row with a NaN is skipped) on
 * bins with these centres (nBins × positionDims): every pair of row and bin is equally likely, so
 * the median is over all pairs' distances (Euclidean in 2-D) and the share is the mean share of
 * bins within the radius. Undefined when there is no bin or no known position.
 */
export function chanceAccuracy(binCenters: ArrayLike<number>, truePositions: ArrayLike<number>, positionDims: number): ChanceAccuracy | undefined {
  const q = positionDims;
  const nBins = Math.floor(binCenters.length / q);
  const known: number[] = [];
  for (let r = 0; r * q < truePositions.length; r++) {
    let finite = true;
    for (let k = 0; k < q; k++) finite &&= Number.isFinite(truePositions[r * q + k]!);
    if (finite) known.push(r);
  }
  if (nBins === 0 || known.length === 0) return undefined;
  const stride = Math.max(1, Math.ceil((known.length * nBins) / MAX_PAIRS));
  const rows = known.filter((_, i) => i % stride === 0);
  const distances = new Float64Array(rows.length * nBins);
  let within = 0;
  let at = 0;
  for (const r of rows) {
    for (let b = 0; b < nBins; b++) {
      let squared = 0;
      for (let k = 0; k < q; k++) squared += (binCenters[b * q + k]! - truePositions[r * q + k]!) ** 2;
      const d = Math.sqrt(squared);
      if (d <= CHANCE_RADIUS) within++;
      distances[at++] = d;
    }
  }
  distances.sort();
  return { rows: known.length, medianAbsError: sortedMedian(distances), shareWithin10: within / distances.length };
}

/** The true positions a decode over [start, end] is judged against: the decoding track where the data give one, else the encoding track. */
export function positionsWithin(
  d: { positionTime: Float64Array; position: Float64Array; decodingPositionTime?: Float64Array; decodingPosition?: Float64Array; positionDims: number },
  start: number, end: number,
): Float64Array {
  const times = d.decodingPositionTime ?? d.positionTime;
  const values = d.decodingPosition ?? d.position;
  const q = d.positionDims;
  const kept: number[] = [];
  for (let j = 0; j < times.length; j++) {
    if (times[j]! < start || times[j]! > end) continue;
    for (let k = 0; k < q; k++) kept.push(values[j * q + k]!);
  }
  return Float64Array.from(kept);
}
