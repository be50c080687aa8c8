/**
 * Writes a production-size clusterless-npz/1 recording for load and memory tests: an animal running
 * laps on a linear track, place-tuned units on each tetrode, 4 amplitude marks per spike (the model
 * of src/main/data/presets/placeSimulation.ts, which also builds the `place` preset). Each electrode is
 * generated and written on its own, so memory stays bounded whatever the spike count.
 *
 *   node --import tsx scripts/make-recording.ts OUT.npz [--spikes 2100000] [--electrodes 32]
 *     [--features 4] [--duration 1200] [--position-hz 500] [--seed 1] [--decode-last 0.05] [--replay-rate 0.5]
 *     [--bin-cm 2]
 *
 * --decode-last F writes `time` as the position timestamps of the recording's last fraction F, so the
 * decoding rows cover only that window (encoding still uses every sample).
 *
 * --replay-rate R: replay events per second the animal waits at a track end (0 for none): the
 * spikes then represent a fast sweep along the track (placeSimulation.ts replayTrajectory), which the
 * detector should decode as non-local. meta_json lists the events.
 *
 * --bin-cm B: the place grid's bin size (params.place_bin_size): 0.2 gives the 200 cm track 1 000
 * bins, for posteriors of a few thousand state bins.
 *
 * The output is large (about 100 MB at the defaults); keep it out of the repository.
 */
import { parseArgs } from 'node:util';
import {
  encodeNpyBytes, encodeNpyFloat64, encodeNpyStrings, float32Bytes, float64Bytes, lapTrajectory, NPZ_FORMAT, npyHeader,
  PLACE_POSITION_STD_CM, PLACE_WAVEFORM_STD, replayTrajectory, Rng, spikeCountsPerElectrode, tetrodeSpikes, TRACK_CM, ZipWriter,
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
  replayRate: number;
  binCm: number;
}

const USAGE = 'usage: make-recording.ts OUT.npz [--spikes N] [--electrodes E] [--features F] [--duration S] [--position-hz HZ] [--seed N] [--decode-last F] [--replay-rate R] [--bin-cm B]';

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
      'replay-rate': { type: 'string', default: '0.5' },
      'bin-cm': { type: 'string', default: '2' },
      'decode-last': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const out = positionals[0];
  const int = (name: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min}, got ${v}`);
    return n;
  };
  if (!out) throw new Error(USAGE);
  return {
    out,
    spikes: Math.floor(int('spikes', values.spikes, 1)),
    electrodes: Math.floor(int('electrodes', values.electrodes, 1)),
    features: Math.floor(int('features', values.features, 1)),
    durationS: int('duration', values.duration, 1),
    positionHz: int('position-hz', values['position-hz'], 1),
    seed: Math.floor(int('seed', values.seed, 0)),
    decodeLast: values['decode-last'] === undefined ? null : Math.min(1, int('decode-last', values['decode-last'], 1e-6)),
    replayRate: int('replay-rate', values['replay-rate'], 0),
    binCm: int('bin-cm', values['bin-cm'], 0.01),
  };
}

async function main(): Promise<void> {
  const o = options();
  const started = performance.now();
  const rng = new Rng(o.seed);
  const { time, position } = lapTrajectory(o.durationS, o.positionHz, rng);
  const { represented, events } = replayTrajectory(position, o.positionHz, o.replayRate, rng);
  const counts = spikeCountsPerElectrode(o.spikes, o.electrodes, rng);
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
    await zip.add('position_std.npy', [encodeNpyFloat64([], Float64Array.of(PLACE_POSITION_STD_CM))]);
    await zip.add('waveform_std.npy', [encodeNpyFloat64([], Float64Array.of(PLACE_WAVEFORM_STD))]);
    await zip.add('params.npy', [encodeNpyBytes(new TextEncoder().encode(JSON.stringify({ place_bin_size: o.binCm, block_size: 100 })))]);
    for (let e = 0; e < o.electrodes; e++) {
      const { times, marks } = tetrodeSpikes(counts[e]!, o.features, o.positionHz, represented, rng);
      await zip.add(`spike_times_${e}.npy`, [npyHeader('<f8', [times.length]), float64Bytes(times)]);
      await zip.add(`spike_waveform_features_${e}.npy`, [npyHeader('<f4', [times.length, o.features]), float32Bytes(marks)]);
      process.stderr.write(`electrode ${e + 1}/${o.electrodes}: ${times.length} spikes\n`);
    }
    const meta = { generator: 'scripts/make-recording.ts', ...o, out: undefined, track_cm: TRACK_CM, replay_events: events };
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
