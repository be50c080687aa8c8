/**
 * A recording in a 2-D open field, shaped like non_local_detector's production data (posterior-spec
 * §2b: 22 tetrodes, 4-D marks, 3 420 place bins, 709 k time bins): the animal wanders a rectangular
 * arena in a smooth random walk with short pauses, 2-D Gaussian place cells on each tetrode fire at
 * its position, and during pauses some bursts replay a straight sweep across the arena instead. The
 * spikes are drawn as the linear track's are (placeSimulation.ts); scripts/make-recording.ts writes
 * the file (`--open-field`).
 */
import { REPLAY_CM_PER_S, replayWindows, spikeCountsPerElectrode, spikesFromRates, type TetrodeSpikes } from './placeSimulation';
import { Rng } from './rng';

export interface Arena {
  widthCm: number;
  heightCm: number;
}

/**
 * 110 × 116 cm: NLD's grid over it at 2 cm bins is ceil(110/2) + 2 = 57 by ceil(116/2) + 2 = 60
 * (a padding bin at each end of each axis), the 3 420 bins of its production data.
 */
export const OPEN_FIELD_ARENA: Arena = { widthCm: 110, heightCm: 116 };

/** speeds an exploring rat keeps, cm/s */
const MIN_SPEED = 5;
const MAX_SPEED = 40;
/** how fast the heading wanders: radians per √s, so it turns within a second or two */
const HEADING_DIFFUSION = 2;
/** mean running time between pauses, s; each pause lasts 1–3 s as at the track's ends */
const MEAN_RUN_S = 12;

export interface OpenFieldTrajectory {
  /** sample times, seconds from 0 at `positionHz` */
  time: Float64Array;
  /** (n × 2) row-major x, y in cm, inside the arena */
  position: Float64Array;
  /** runs of samples [first, end) in which the animal stands still */
  pauses: [number, number][];
}

/** Speed and heading wander as a smooth random walk from the arena's centre, reflected at the walls. */
export function openFieldTrajectory(durationS: number, positionHz: number, rng: Rng, arena: Arena = OPEN_FIELD_ARENA): OpenFieldTrajectory {
  const n = Math.floor(durationS * positionHz);
  const time = Float64Array.from({ length: n }, (_, i) => i / positionHz);
  const position = new Float64Array(n * 2);
  const pauses: [number, number][] = [];
  const dt = 1 / positionHz;
  let [x, y] = [arena.widthCm / 2, arena.heightCm / 2];
  let heading = rng.uniform(0, 2 * Math.PI);
  let speed = 20;
  let still = 0;
  for (let i = 0; i < n; i++) {
    position[i * 2] = x;
    position[i * 2 + 1] = y;
    if (still > 0) {
      still--;
      continue;
    }
    speed = Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed + rng.normal() * 20 * Math.sqrt(dt)));
    heading += rng.normal() * HEADING_DIFFUSION * Math.sqrt(dt);
    x += speed * Math.cos(heading) * dt;
    y += speed * Math.sin(heading) * dt;
    // a step is far shorter than the arena, so one reflection puts it back inside
    if (x < 0 || x > arena.widthCm) {
      x = x < 0 ? -x : 2 * arena.widthCm - x;
      heading = Math.PI - heading;
    }
    if (y < 0 || y > arena.heightCm) {
      y = y < 0 ? -y : 2 * arena.heightCm - y;
      heading = -heading;
    }
    if (rng.random() < dt / MEAN_RUN_S) {
      still = Math.floor(rng.uniform(1, 3) * positionHz);
      // samples i + 1 … i + 1 + still all hold the position the step ended at
      if (i + 1 < n) pauses.push([i + 1, Math.min(n, i + 2 + still)]);
    }
  }
  return { time, position, pauses };
}

/** A stretch of time in which the spikes represent a straight sweep across the arena, not the animal's position. */
export interface OpenFieldReplayEvent {
  startS: number;
  endS: number;
  /** [x, y] cm: where the animal stands, where the sweep starts */
  fromCm: [number, number];
  toCm: [number, number];
}

/** How far a ray from (x, y) along (cos, sin) runs before it leaves the arena. */
function roomAlong(x: number, y: number, cos: number, sin: number, arena: Arena): number {
  const tx = cos > 0 ? (arena.widthCm - x) / cos : cos < 0 ? -x / cos : Infinity;
  const ty = sin > 0 ? (arena.heightCm - y) / sin : sin < 0 ? -y / sin : Infinity;
  return Math.min(tx, ty);
}

/** Of a few random headings, the one with the most arena ahead, so a sweep has room to travel. */
function sweepHeading(x: number, y: number, rng: Rng, arena: Arena): { cos: number; sin: number; room: number } {
  let best = { cos: 1, sin: 0, room: -1 };
  for (let k = 0; k < 8; k++) {
    const a = rng.uniform(0, 2 * Math.PI);
    const room = roomAlong(x, y, Math.cos(a), Math.sin(a), arena);
    if (room > best.room) best = { cos: Math.cos(a), sin: Math.sin(a), room };
  }
  return best;
}

/**
 * Replay on top of the walk: while the animal stands still, now and then (at `ratePerS` events per
 * second of pausing, with the linear track's timing: replayWindows) its place cells fire for
 * 100–250 ms as if it swept in a straight line from where it stands at up to 600 cm/s, slower only
 * where the wall would stop the sweep. Returns the (n × 2) position the spikes represent (the true
 * one outside events) and the events, for checking a detector's non-local calls against.
 */
export function openFieldReplay(t: OpenFieldTrajectory, positionHz: number, ratePerS: number, rng: Rng, arena: Arena = OPEN_FIELD_ARENA):
  { represented: Float64Array; events: OpenFieldReplayEvent[] } {
  const represented = Float64Array.from(t.position);
  const events: OpenFieldReplayEvent[] = [];
  if (!(ratePerS > 0)) return { represented, events };
  for (const [first, end] of t.pauses) {
    const [x0, y0] = [t.position[first * 2]!, t.position[first * 2 + 1]!];
    for (const { start, length } of replayWindows(first, end, positionHz, ratePerS, rng)) {
      const { cos, sin, room } = sweepHeading(x0, y0, rng, arena);
      const speed = Math.min(REPLAY_CM_PER_S, (room * positionHz) / Math.max(1, length - 1));
      const clamp = (v: number, hi: number) => Math.min(hi, Math.max(0, v));
      for (let k = 0; k < length; k++) {
        const d = (speed * k) / positionHz;
        // a sweep that ends on a wall may round past it
        represented[(start + k) * 2] = clamp(x0 + cos * d, arena.widthCm);
        represented[(start + k) * 2 + 1] = clamp(y0 + sin * d, arena.heightCm);
      }
      const last = (start + length - 1) * 2;
      events.push({ startS: start / positionHz, endS: (start + length) / positionHz, fromCm: [x0, y0], toCm: [represented[last]!, represented[last + 1]!] });
    }
  }
  return { represented, events };
}

interface FieldUnit {
  x: number;
  y: number;
  /** the field's standard deviation, cm (Infinity: a unit that fires everywhere) */
  width: number;
  peakHz: number;
  template: number[];
}

/** 4–8 place cells with 2-D Gaussian fields anywhere in the arena, plus the small threshold crossings of distant cells. */
function fieldUnits(features: number, rng: Rng, arena: Arena): FieldUnit[] {
  const count = 4 + Math.floor(rng.random() * 5);
  const units: FieldUnit[] = [];
  for (let u = 0; u < count; u++) {
    units.push({
      x: rng.uniform(0, arena.widthCm),
      y: rng.uniform(0, arena.heightCm),
      width: rng.uniform(8, 20),
      peakHz: rng.uniform(10, 40),
      template: Array.from({ length: features }, () => rng.uniform(40, 300)),
    });
  }
  units.push({ x: 0, y: 0, width: Infinity, peakHz: 5, template: Array.from({ length: features }, () => rng.uniform(30, 60)) });
  return units;
}

function fieldRate(u: FieldUnit, x: number, y: number): number {
  return u.width === Infinity ? u.peakHz : u.peakHz * Math.exp(-0.5 * ((x - u.x) ** 2 + (y - u.y) ** 2) / u.width ** 2);
}

/** Exactly `n` spikes of one tetrode of 2-D place cells at the (n × 2) `represented` position per sample. */
export function openFieldTetrodeSpikes(n: number, features: number, positionHz: number, represented: Float64Array, rng: Rng,
  arena: Arena = OPEN_FIELD_ARENA): TetrodeSpikes {
  const units = fieldUnits(features, rng, arena);
  let maxRate = 0;
  for (let x = 0; x <= arena.widthCm; x += 0.5) {
    for (let y = 0; y <= arena.heightCm; y += 0.5) maxRate = Math.max(maxRate, units.reduce((s, u) => s + fieldRate(u, x, y), 0));
  }
  const model = {
    ratesAt: (i: number) => units.map((u) => fieldRate(u, represented[i * 2]!, represented[i * 2 + 1]!)),
    // a field's peak can fall between the scan's points (by < 0.1 % at widths ≥ 8 cm); thinning needs a true bound
    maxTotalRate: maxRate * 1.01,
    templates: units.map((u) => u.template),
  };
  return spikesFromRates(n, features, positionHz, represented.length / 2, model, rng);
}

export interface OpenFieldOptions {
  seed: number;
  electrodes: number;
  /** amplitude channels per spike */
  features: number;
  durationS: number;
  positionHz: number;
  /** spikes over the whole recording, all electrodes */
  spikes: number;
  /** replay events per second of pausing (0: none) */
  replayRate: number;
  arena: Arena;
}

/**
 * NLD's production shape: 22 tetrodes with 4 marks, 1 418 s at 500 Hz (its 709 k time bins when
 * every position sample is a decoding row). Its spike rate is not published; at about 50 spikes/s
 * per tetrode NLD's mark × position product over the whole recording is some 7e14 FLOP, about 36 s
 * at an A100's float32 peak: the order of the 83 s per predict it reports for that data.
 */
export const OPEN_FIELD_DEFAULTS: Omit<OpenFieldOptions, 'seed'> = {
  electrodes: 22,
  features: 4,
  durationS: 1418,
  positionHz: 500,
  spikes: 1_559_800,
  replayRate: 0.5,
  arena: OPEN_FIELD_ARENA,
};

export interface OpenFieldRecording extends OpenFieldTrajectory {
  /** the position the spikes represent: the true one, replaced by the sweep in replay events */
  represented: Float64Array;
  events: OpenFieldReplayEvent[];
  /** spikes per electrode */
  counts: number[];
  /**
   * Each electrode's spikes in turn, drawn as they are asked for (one at a time in memory, whatever
   * the spike count); they continue the recording's random stream, so read them once, in order.
   */
  electrodeSpikes(): Generator<TetrodeSpikes>;
}

export function simulateOpenField(o: OpenFieldOptions): OpenFieldRecording {
  const rng = new Rng(o.seed);
  const trajectory = openFieldTrajectory(o.durationS, o.positionHz, rng, o.arena);
  const { represented, events } = openFieldReplay(trajectory, o.positionHz, o.replayRate, rng, o.arena);
  const counts = spikeCountsPerElectrode(o.spikes, o.electrodes, rng);
  function* electrodeSpikes(): Generator<TetrodeSpikes> {
    for (const n of counts) yield openFieldTetrodeSpikes(n, o.features, o.positionHz, represented, rng, o.arena);
  }
  return { ...trajectory, represented, events, counts, electrodeSpikes };
}
