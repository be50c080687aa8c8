/**
 * Writes a production-size clusterless-npz/1 recording for load and memory tests: an animal running
 * laps on a linear track, place-tuned units on each tetrode, 4 amplitude marks per spike. Each
 * electrode is generated and written on its own, so memory stays bounded whatever the spike count.
 *
 *   node --import tsx scripts/make-recording.ts OUT.npz [--spikes 2100000] [--electrodes 32]
 *     [--features 4] [--duration 1200] [--position-hz 500] [--seed 1] [--decode-last 0.05]
 *
 * --decode-last F writes `time` as the position timestamps of the recording's last fraction F, so the
 * decoding rows cover only that window (encoding still uses every sample).
 *
 * The output is large (about 100 MB at the defaults); keep it out of the repository.
 */
import { parseArgs } from 'node:util';
import {
  encodeNpyBytes, encodeNpyFloat64, encodeNpyStrings, float32Bytes, float64Bytes, NPZ_FORMAT, npyHeader, Rng, ZipWriter,
} from '../src/main/data';

interface Options {
  out: string;
  spikes: number;
  electrodes: number;
  features: number;
  durationS: number;
  positionHz: number;
  seed: number;
  decodeLast: number | null;
}

const TRACK_CM = 200;

function options(): Options {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      spikes: { type: 'string', default: '2100000' },
      electrodes: { type: 'string', default: '32' },
      features: { type: 'string', default: '4' },
      duration: { type: 'string', default: '1200' },
      'position-hz': { type: 'string', default: '500' },
      seed: { type: 'string', default: '1' },
      'decode-last': { type: 'string' },
    },
  });
  const out = positionals[0];
  const int = (name: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min}, got ${v}`);
    return n;
  };
  if (!out) throw new Error('usage: make-recording.ts OUT.npz [--spikes N] [--electrodes E] [--features F] [--duration S] [--position-hz HZ] [--seed N] [--decode-last F]');
  return {
    out,
    spikes: Math.floor(int('spikes', values.spikes, 1)),
    electrodes: Math.floor(int('electrodes', values.electrodes, 1)),
    features: Math.floor(int('features', values.features, 1)),
    durationS: int('duration', values.duration, 1),
    positionHz: int('position-hz', values['position-hz'], 1),
    seed: Math.floor(int('seed', values.seed, 0)),
    decodeLast: values['decode-last'] === undefined ? null : Math.min(1, int('decode-last', values['decode-last'], 1e-6)),
  };
}

/** laps at a speed that wanders between 15 and 80 cm/s, with 1–3 s pauses at the ends */
function trajectory(o: Options, rng: Rng): { time: Float64Array; position: Float64Array } {
  const n = Math.floor(o.durationS * o.positionHz);
  const time = Float64Array.from({ length: n }, (_, i) => i / o.positionHz);
  const position = new Float64Array(n);
  const dt = 1 / o.positionHz;
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

interface Unit {
  center: number;
  width: number;
  peakHz: number;
  template: number[];
}

function unitsOf(o: Options, rng: Rng): Unit[] {
  const count = 4 + Math.floor(rng.random() * 5);
  const units: Unit[] = [];
  for (let u = 0; u < count; u++) {
    units.push({
      center: rng.uniform(0, TRACK_CM),
      width: rng.uniform(8, 20),
      peakHz: rng.uniform(10, 40),
      template: Array.from({ length: o.features }, () => rng.uniform(40, 300)),
    });
  }
  // threshold crossings of distant cells: everywhere, small
  units.push({ center: TRACK_CM / 2, width: Infinity, peakHz: 5, template: Array.from({ length: o.features }, () => rng.uniform(30, 60)) });
  return units;
}

function rateAt(u: Unit, x: number): number {
  return u.width === Infinity ? u.peakHz : u.peakHz * Math.exp(-0.5 * ((x - u.center) / u.width) ** 2);
}

/** exactly `n` spikes by thinning uniform candidates against the place-tuned rate, then sorted */
function electrodeSpikes(o: Options, rng: Rng, n: number, position: Float64Array): { times: Float64Array; marks: Float32Array } {
  const lastS = (position.length - 1) / o.positionHz;
  const units = unitsOf(o, rng);
  let maxRate = 0;
  for (let x = 0; x <= TRACK_CM; x += 0.5) maxRate = Math.max(maxRate, units.reduce((s, u) => s + rateAt(u, x), 0));
  const times = new Float64Array(n);
  const unitOf = new Uint8Array(n);
  let k = 0;
  while (k < n) {
    const t = rng.uniform(0, lastS);
    const x = position[Math.min(position.length - 1, Math.floor(t * o.positionHz))]!;
    const rates = units.map((u) => rateAt(u, x));
    const total = rates.reduce((s, r) => s + r, 0);
    if (rng.random() * maxRate > total) continue;
    let pick = rng.random() * total;
    let u = 0;
    while (u < units.length - 1 && pick > rates[u]!) pick -= rates[u++]!;
    times[k] = t;
    unitOf[k++] = u;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => times[a]! - times[b]!);
  const sortedTimes = Float64Array.from(order, (i) => times[i]!);
  const marks = new Float32Array(n * o.features);
  order.forEach((src, dst) => {
    const tpl = units[unitOf[src]!]!.template;
    for (let j = 0; j < o.features; j++) marks[dst * o.features + j] = tpl[j]! * (1 + 0.05 * rng.normal()) + 8 * rng.normal();
  });
  return { times: sortedTimes, marks };
}

/** spike counts per electrode: uneven (0.6–1.4 of the mean) and summing exactly to the total */
function spikeCounts(o: Options, rng: Rng): number[] {
  const w = Array.from({ length: o.electrodes }, () => rng.uniform(0.6, 1.4));
  const sum = w.reduce((a, b) => a + b, 0);
  const counts = w.map((x) => Math.floor((o.spikes * x) / sum));
  let rest = o.spikes - counts.reduce((a, b) => a + b, 0);
  for (let e = 0; rest > 0; e = (e + 1) % o.electrodes, rest--) counts[e]!++;
  return counts;
}

async function main(): Promise<void> {
  const o = options();
  const started = performance.now();
  const rng = new Rng(o.seed);
  const { time, position } = trajectory(o, rng);
  const counts = spikeCounts(o, rng);
  const zip = await ZipWriter.create(o.out);
  try {
    await zip.add('format.npy', [encodeNpyStrings([NPZ_FORMAT], true)]);
    await zip.add('position_time.npy', [npyHeader('<f8', [time.length]), float64Bytes(time)]);
    await zip.add('position.npy', [npyHeader('<f8', [time.length, 1]), float64Bytes(position)]);
    await zip.add('position_units.npy', [encodeNpyStrings(['cm'], true)]);
    if (o.decodeLast !== null) {
      const window = time.subarray(Math.floor(time.length * (1 - o.decodeLast)));
      await zip.add('time.npy', [npyHeader('<f8', [window.length]), float64Bytes(window)]);
    }
    await zip.add('electrode_names.npy', [encodeNpyStrings(counts.map((_, e) => `tet${String(e + 1).padStart(2, '0')}`))]);
    await zip.add('feature_names.npy', [encodeNpyStrings(Array.from({ length: o.features }, (_, j) => `amp_ch${j}`))]);
    await zip.add('position_std.npy', [encodeNpyFloat64([], Float64Array.of(6))]);
    await zip.add('waveform_std.npy', [encodeNpyFloat64([], Float64Array.of(24))]);
    await zip.add('params.npy', [encodeNpyBytes(new TextEncoder().encode(JSON.stringify({ place_bin_size: 2, block_size: 100 })))]);
    for (let e = 0; e < o.electrodes; e++) {
      const { times, marks } = electrodeSpikes(o, rng, counts[e]!, position);
      await zip.add(`spike_times_${e}.npy`, [npyHeader('<f8', [times.length]), float64Bytes(times)]);
      await zip.add(`spike_waveform_features_${e}.npy`, [npyHeader('<f4', [times.length, o.features]), float32Bytes(marks)]);
      process.stderr.write(`electrode ${e + 1}/${o.electrodes}: ${times.length} spikes\n`);
    }
    const meta = { generator: 'scripts/make-recording.ts', ...o, out: undefined, track_cm: TRACK_CM };
    await zip.add('meta_json.npy', [encodeNpyStrings([JSON.stringify(meta)], true)]);
    await zip.finish();
  } catch (e) {
    await zip.abort();
    throw e;
  }
  const seconds = (performance.now() - started) / 1000;
  const peakMb = process.resourceUsage().maxRSS / 1024;
  process.stderr.write(`wrote ${o.out}: ${o.spikes} spikes on ${o.electrodes} electrodes, ${time.length} position samples in ${seconds.toFixed(1)} s (peak RSS ${peakMb.toFixed(0)} MB)\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
