/** Small hand-made datasets for engine tests, with a seeded generator of their own. */
import type { Dataset, ElectrodeData } from '../../../shared/dataset';

export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

export function normal(r: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
}

export interface ElectrodeSpec {
  nEnc: number;
  nDec: number;
  nFeatures: number;
  markScale?: number;
}

export interface SmallOptions {
  seed?: number;
  nPos?: number;
  nTime?: number;
  bins?: number[];
  electrodes?: ElectrodeSpec[];
  waveformStd?: number | number[];
  positionStd?: number | number[];
  blockSize?: number;
}

export function electrode(r: () => number, spec: ElectrodeSpec, name: string, encSpan: number, decSpan: number): ElectrodeData {
  const scale = spec.markScale ?? 30;
  const times = (n: number, span: number) => Float64Array.from({ length: n }, () => r() * span).sort();
  const marks = (n: number) => Float64Array.from({ length: n * spec.nFeatures }, () => normal(r) * scale);
  return {
    name,
    nFeatures: spec.nFeatures,
    encodingSpikeTimes: times(spec.nEnc, encSpan),
    encodingFeatures: marks(spec.nEnc),
    decodingSpikeTimes: times(spec.nDec, decSpan),
    decodingFeatures: marks(spec.nDec),
  };
}

/** A 1-D track 0..100 over 10 s of encoding, decoded over 4 s. */
export function smallDataset(o: SmallOptions = {}): Dataset {
  const r = rng(o.seed ?? 1);
  const nPos = o.nPos ?? 60;
  const nTime = o.nTime ?? 12;
  const bins = o.bins ?? Array.from({ length: 25 }, (_, j) => (j + 0.5) * 4);
  const specs = o.electrodes ?? [
    { nEnc: 40, nDec: 15, nFeatures: 2 },
    { nEnc: 25, nDec: 10, nFeatures: 3 },
  ];
  return {
    name: 'small-test',
    source: 'test',
    positionTime: Float64Array.from({ length: nPos }, (_, i) => (10 * i) / (nPos - 1)),
    position: Float64Array.from({ length: nPos }, (_, i) => (100 * i) / (nPos - 1)),
    positionDims: 1,
    time: Float64Array.from({ length: nTime }, (_, i) => (4 * i) / Math.max(nTime - 1, 1)),
    decodingPositionTime: Float64Array.from({ length: 20 }, (_, i) => (4 * i) / 19),
    decodingPosition: Float64Array.from({ length: 20 }, (_, i) => 5 + (90 * i) / 19),
    electrodes: specs.map((s, e) => electrode(r, s, `e${e}`, 10, 4)),
    placeBinCenters: Float64Array.from(bins),
    params: { positionStd: o.positionStd ?? Math.sqrt(12.5), waveformStd: o.waveformStd ?? 24, blockSize: o.blockSize ?? 4 },
    notes: [],
  };
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (Number.isNaN(x) !== Number.isNaN(y)) return Infinity;
    if (!Number.isNaN(x)) m = Math.max(m, Math.abs(x - y));
  }
  return m;
}

/** allclose(actual, expected, rtol, atol) with NaN equal to NaN; returns the count of failures */
export function countNotClose(actual: ArrayLike<number>, expected: ArrayLike<number>, rtol = 1e-4, atol = 1e-4): number {
  let bad = 0;
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i]!;
    const b = expected[i]!;
    if (Number.isNaN(a) && Number.isNaN(b)) continue;
    if (!(Math.abs(a - b) <= atol + rtol * Math.abs(b))) bad++;
  }
  return bad + Math.abs(actual.length - expected.length);
}
