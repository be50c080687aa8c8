/**
 * A recording whose spikes carry place information: an animal running laps on a linear track,
 * place-tuned units on each tetrode, amplitude marks drawn around each unit's template. The same
 * model writes production-size files (scripts/make-recording.ts) and builds the `place` preset in
 * memory, so the example decodes something a person can check by eye against the true position.
 */
import type { Dataset, ElectrodeData } from '../../../shared/dataset';
import { lowerBound } from '../../../shared/sortedSearch';
import { buildPlaceGrid1d } from '../grid';
import { Rng } from './rng';

export const TRACK_CM = 200;
/** kernel widths that suit the model: place fields 8–20 cm wide, marks of 40–300 µV with 8 µV noise */
export const PLACE_POSITION_STD_CM = 6;
export const PLACE_WAVEFORM_STD = 24;

export interface LapTrajectory {
  /** sample times, seconds from 0 at `positionHz` */
  time: Float64Array;
  /** position along the track, cm */
  position: Float64Array;
}

/** Laps at a speed that wanders between 15 and 80 cm/s, with 1–3 s pauses at the ends. */
export function lapTrajectory(durationS: number, positionHz: number, rng: Rng): LapTrajectory {
  const n = Math.floor(durationS * positionHz);
  const time = Float64Array.from({ length: n }, (_, i) => i / positionHz);
  const position = new Float64Array(n);
  const dt = 1 / positionHz;
  let x = 0;
  let dir = 1;
  let speed = 40;
  let pause = 0;
  for (let i = 0; i < n; i++) {
    position[i] = x;
    if (pause > 0) {
      pause -= dt;
      continue;
    }
    speed = Math.min(80, Math.max(15, speed + rng.normal() * 20 * Math.sqrt(dt)));
    x += dir * speed * dt;
    if (x >= TRACK_CM || x <= 0) {
      x = Math.min(TRACK_CM, Math.max(0, x));
      dir = -dir;
      pause = rng.uniform(1, 3);
    }
  }
  return { time, position };
}

/** A stretch of time in which the spikes represent a sweep along the track, not the animal's position. */
export interface ReplayEvent {
  startS: number;
  endS: number;
  fromCm: number;
  toCm: number;
}

/** How fast a replayed trajectory sweeps the track (about 20× running speed, as in sharp-wave ripples). */
export const REPLAY_CM_PER_S = 600;

/** The runs of samples in which the animal waits at an end of the track: [first, end) indices. */
function pausesAtEnds(position: Float64Array): [number, number][] {
  const runs: [number, number][] = [];
  let i = 1;
  while (i < position.length) {
    const x = position[i]!;
    if (x !== position[i - 1] || (x !== 0 && x !== TRACK_CM)) {
      i++;
      continue;
    }
    const first = i - 1;
    while (i < position.length && position[i] === x) i++;
    runs.push([first, i]);
  }
  return runs;
}

/**
 * When replay events fall in one pause of samples [first, end): the first 0.2–0.6 s in, then each
 * half second of waiting starts a 100–250 ms event with probability rate × 0.5 s, 0.3 s apart at least.
 */
export function replayWindows(first: number, end: number, positionHz: number, ratePerS: number, rng: Rng): { start: number; length: number }[] {
  const windows: { start: number; length: number }[] = [];
  let i = first + Math.floor(rng.uniform(0.2, 0.6) * positionHz);
  while (i < end) {
    const length = Math.floor(rng.uniform(0.1, 0.25) * positionHz);
    if (i + length > end) break;
    if (rng.random() < Math.min(1, ratePerS * 0.5)) {
      windows.push({ start: i, length });
      i += length + Math.floor(0.3 * positionHz);
    } else {
      i += Math.floor(0.5 * positionHz);
    }
  }
  return windows;
}

/**
 * Replay on top of laps: while the animal waits at an end, now and then (at `ratePerS` events per
 * second of waiting) its place cells fire for 100–250 ms as if it were sweeping from that end along
 * the track. Returns the position the spikes represent (the true one outside events) and the
 * events, so a decode can be checked against them: the detector should call them non-local.
 */
export function replayTrajectory(position: Float64Array, positionHz: number, ratePerS: number, rng: Rng): { represented: Float64Array; events: ReplayEvent[] } {
  const represented = Float64Array.from(position);
  const events: ReplayEvent[] = [];
  if (!(ratePerS > 0)) return { represented, events };
  for (const [first, end] of pausesAtEnds(position)) {
    const from = position[first]!;
    const direction = from === 0 ? 1 : -1;
    for (const { start, length } of replayWindows(first, end, positionHz, ratePerS, rng)) {
      for (let k = 0; k < length; k++) represented[start + k] = from + (direction * REPLAY_CM_PER_S * k) / positionHz;
      events.push({ startS: start / positionHz, endS: (start + length) / positionHz, fromCm: from, toCm: represented[start + length - 1]! });
    }
  }
  return { represented, events };
}

interface PlaceUnit {
  center: number;
  width: number;
  peakHz: number;
  template: number[];
}

/** 4–8 place cells with their own amplitude templates, plus the small threshold crossings of distant cells. */
function tetrodeUnits(features: number, rng: Rng): PlaceUnit[] {
  const count = 4 + Math.floor(rng.random() * 5);
  const units: PlaceUnit[] = [];
  for (let u = 0; u < count; u++) {
    units.push({
      center: rng.uniform(0, TRACK_CM),
      width: rng.uniform(8, 20),
      peakHz: rng.uniform(10, 40),
      template: Array.from({ length: features }, () => rng.uniform(40, 300)),
    });
  }
  units.push({ center: TRACK_CM / 2, width: Infinity, peakHz: 5, template: Array.from({ length: features }, () => rng.uniform(30, 60)) });
  return units;
}

function rateAt(u: PlaceUnit, x: number): number {
  return u.width === Infinity ? u.peakHz : u.peakHz * Math.exp(-0.5 * ((x - u.center) / u.width) ** 2);
}

export interface TetrodeSpikes {
  /** sorted spike times, seconds */
  times: Float64Array;
  /** (n × features) amplitude marks, row-major */
  marks: Float32Array;
}

/** What one tetrode's spikes are drawn from: its units' rates at a position sample, a bound on their sum, their mark templates. */
export interface TetrodeRates { ratesAt(sample: number): number[]; maxTotalRate: number; templates: number[][] }

/**
 * Exactly `n` spikes of one tetrode, by thinning uniform candidate times against the units' rates
 * at the position sample each falls in, then sorted; each spike's marks are its unit's template
 * with 5 % gain jitter and 8 µV noise.
 */
export function spikesFromRates(n: number, features: number, positionHz: number, samples: number, model: TetrodeRates, rng: Rng): TetrodeSpikes {
  const lastS = (samples - 1) / positionHz;
  const times = new Float64Array(n);
  const unitOf = new Uint8Array(n);
  let k = 0;
  while (k < n) {
    const t = rng.uniform(0, lastS);
    const rates = model.ratesAt(Math.min(samples - 1, Math.floor(t * positionHz)));
    const total = rates.reduce((s, r) => s + r, 0);
    if (rng.random() * model.maxTotalRate > total) continue;
    let pick = rng.random() * total;
    let u = 0;
    while (u < rates.length - 1 && pick > rates[u]!) pick -= rates[u++]!;
    times[k] = t;
    unitOf[k++] = u;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => times[a]! - times[b]!);
  const sortedTimes = Float64Array.from(order, (i) => times[i]!);
  const marks = new Float32Array(n * features);
  order.forEach((src, dst) => {
    const tpl = model.templates[unitOf[src]!]!;
    for (let j = 0; j < features; j++) marks[dst * features + j] = tpl[j]! * (1 + 0.05 * rng.normal()) + 8 * rng.normal();
  });
  return { times: sortedTimes, marks };
}

/** Exactly `n` spikes of one tetrode of place cells on the track (spikesFromRates), at the animal's `position` per sample. */
export function tetrodeSpikes(n: number, features: number, positionHz: number, position: Float64Array, rng: Rng): TetrodeSpikes {
  const units = tetrodeUnits(features, rng);
  let maxRate = 0;
  for (let x = 0; x <= TRACK_CM; x += 0.5) maxRate = Math.max(maxRate, units.reduce((s, u) => s + rateAt(u, x), 0));
  const model = { ratesAt: (i: number) => units.map((u) => rateAt(u, position[i]!)), maxTotalRate: maxRate, templates: units.map((u) => u.template) };
  return spikesFromRates(n, features, positionHz, position.length, model, rng);
}

/** Spike counts per electrode: uneven (0.6–1.4 of the mean) and summing exactly to the total. */
export function spikeCountsPerElectrode(totalSpikes: number, electrodes: number, rng: Rng): number[] {
  const w = Array.from({ length: electrodes }, () => rng.uniform(0.6, 1.4));
  const sum = w.reduce((a, b) => a + b, 0);
  const counts = w.map((x) => Math.floor((totalSpikes * x) / sum));
  let rest = totalSpikes - counts.reduce((a, b) => a + b, 0);
  for (let e = 0; rest > 0; e = (e + 1) % electrodes, rest--) counts[e]!++;
  return counts;
}

export interface PlaceSimulationOptions {
  seed: number;
  electrodes: number;
  /** amplitude channels per spike */
  features: number;
  /** multiplies the marks after drawing (the presets' featureScale) */
  featureScale: number;
  durationS: number;
  positionHz: number;
  /** spikes over the whole recording, all electrodes */
  totalSpikes: number;
  /** the recording's last seconds are decoded; the model is fit on everything before them */
  decodeLastS: number;
  /** decoding row length, seconds */
  rowS: number;
  placeBinSize: number;
}

/**
 * The `place` preset: 16 tetrodes, 3 minutes, the last 20 s decoded in 100 ms rows over 100 bins.
 * About 5 spikes/s per tetrode keeps every strategy's call near a second on wasm (the log-sum-exp
 * strategies cost encoding × decoding spikes × bins), about `medium`'s cost, while each row still
 * holds some 8 spikes to decode from.
 */
export const PLACE_PRESET: Omit<PlaceSimulationOptions, 'seed' | 'features' | 'featureScale'> = {
  electrodes: 16,
  durationS: 180,
  positionHz: 50,
  totalSpikes: 14_400,
  decodeLastS: 20,
  rowS: 0.1,
  placeBinSize: 2,
};

/** The electrode's spikes split at `splitS`: before it they encode, from it on they are decoded. */
function splitElectrode(name: string, spikes: TetrodeSpikes, features: number, featureScale: number, splitS: number): ElectrodeData {
  const cut = lowerBound(spikes.times, splitS);
  const marks = Float64Array.from(spikes.marks, (v) => v * featureScale);
  return {
    name,
    nFeatures: features,
    encodingSpikeTimes: spikes.times.slice(0, cut),
    encodingFeatures: marks.slice(0, cut * features),
    decodingSpikeTimes: spikes.times.slice(cut),
    decodingFeatures: marks.slice(cut * features),
  };
}

/** Row start times over [from, to]: the last row holds no spikes, as the detector's time bins do. */
function rowTimes(from: number, to: number, rowS: number): Float64Array {
  const n = Math.floor((to - from) / rowS + 1e-9) + 1;
  return Float64Array.from({ length: n }, (_, r) => from + r * rowS);
}

/**
 * A place-tuned recording as a Dataset: encoding on the laps before the decoding window (held
 * out, so decoding is not tested on the spikes it was fit on), the true position through the
 * decoding window as `decodingPosition`, marks in float32 precision as a file would carry them.
 */
export function simulatePlaceDataset(name: string, o: PlaceSimulationOptions): Dataset {
  const rng = new Rng(o.seed);
  const { time, position } = lapTrajectory(o.durationS, o.positionHz, rng);
  const counts = spikeCountsPerElectrode(o.totalSpikes, o.electrodes, rng);
  const splitS = time[time.length - 1]! - o.decodeLastS;
  const electrodes = counts.map((n, e) =>
    splitElectrode(`tet${String(e + 1).padStart(2, '0')}`, tetrodeSpikes(n, o.features, o.positionHz, position, rng), o.features, o.featureScale, splitS));
  const split = lowerBound(time, splitS);
  // the sample at the split belongs to both sides, so neither track stops short of it
  const encodingTime = time.slice(0, split + 1);
  const encodingPosition = position.slice(0, split + 1);
  const grid = buildPlaceGrid1d(encodingPosition, o.placeBinSize);
  const interior = grid.centers.filter((_, j) => grid.isInterior[j]);
  return {
    name,
    source: `preset:${name}`,
    positionTime: encodingTime,
    position: encodingPosition,
    positionDims: 1,
    time: rowTimes(time[split]!, time[time.length - 1]!, o.rowS),
    decodingPositionTime: time.slice(split),
    decodingPosition: position.slice(split),
    electrodes,
    placeBinCenters: interior,
    placeGrid: { centers: grid.centers, interior: Uint8Array.from(grid.isInterior, (v) => (v ? 1 : 0)) },
    params: { positionStd: PLACE_POSITION_STD_CM, waveformStd: PLACE_WAVEFORM_STD, blockSize: 100, placeBinSize: o.placeBinSize },
    notes: [
      `place-tuned simulation '${name}', seed ${o.seed}: laps on a ${TRACK_CM} cm track, ${o.electrodes} tetrodes, ` +
        `${o.features} amplitude marks per spike, feature scale ${o.featureScale}`,
      `fit on the first ${(time[split]!).toFixed(1)} s, decoding the last ${o.decodeLastS} s in ${o.rowS * 1000} ms rows; ` +
        'the true position in the decoding window is the decoding position',
      `grid built from place_bin_size ${o.placeBinSize} cm over the encoding positions: ${interior.length} interior bins`,
    ],
  };
}
