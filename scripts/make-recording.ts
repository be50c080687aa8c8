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
 * --open-field writes a 2-D recording shaped like non_local_detector's production data instead
 * (src/main/data/presets/openField.ts): a 110 × 116 cm arena, 22 tetrodes, 4 marks, 1 418 s at 500 Hz
 * (709 000 samples: its 709 k time bins where every sample is a decoding row), about 50 spikes/s
 * per tetrode, replay sweeps while the animal pauses. The file carries NLD's 2-D grid over every
 * position (57 × 60 = 3 420 bins at --bin-cm 2) as place_bin_centers and is_track_interior, so every
 * reader decodes on the same bins.
 *
 * The output is large (about 100 MB at the defaults, 55 MB with --open-field); keep it out of the repository.
 */
import { parseArgs } from 'node:util';
import {
  buildPlaceGrid2d, float64Bytes, lapTrajectory, npyHeader, replayTrajectory, Rng, spikeCountsPerElectrode, tetrodeSpikes, TRACK_CM,
} from '../src/main/data';
import { OPEN_FIELD_DEFAULTS, simulateOpenField } from '../src/main/data/presets/openField';
import { writeRecording, type RecordingParts } from './recordingWriter';

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

const USAGE = 'usage: make-recording.ts OUT.npz [--spikes N] [--electrodes E] [--features F] [--duration S] [--position-hz HZ] [--seed N] [--decode-last F] [--replay-rate R] [--bin-cm B] [--open-field]';

/** the defaults that differ between the two arenas */
const TRACK_DEFAULTS = { spikes: 2_100_000, electrodes: 32, durationS: 1200 };
const FIELD = OPEN_FIELD_DEFAULTS;
/** NLD's grid over a walk that reaches every wall: ceil(side / 2 cm) bins per axis and a padding bin at each end */
const FIELD_GRID = [FIELD.arena.widthCm, FIELD.arena.heightCm].map((side) => Math.ceil(side / 2) + 2);

const HELP = `${USAGE}

  laps on a ${TRACK_CM} cm linear track (the default): --spikes ${TRACK_DEFAULTS.spikes} --electrodes ${TRACK_DEFAULTS.electrodes} --duration ${TRACK_DEFAULTS.durationS}
  --open-field: a ${FIELD.arena.widthCm} × ${FIELD.arena.heightCm} cm open field shaped like non_local_detector's production data:
    --spikes ${FIELD.spikes} (about 50 spikes/s per tetrode) --electrodes ${FIELD.electrodes} --duration ${FIELD.durationS}
    (${FIELD.durationS * FIELD.positionHz} samples at ${FIELD.positionHz} Hz, NLD's 709 k time bins); at --bin-cm 2 NLD's grid over it
    is ${FIELD_GRID.join(' × ')} = ${FIELD_GRID[0]! * FIELD_GRID[1]!} bins, written into the file (place_bin_centers, is_track_interior)
  both: --features 4 --position-hz 500 --seed 1 --replay-rate 0.5 (replay events per second of pausing, 0 for none)
    --bin-cm 2 (params.place_bin_size); --decode-last F: decoding rows over the last fraction F only (default: all samples)
`;

function options(): Options & { openField: boolean } {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      spikes: { type: 'string' },
      electrodes: { type: 'string' },
      features: { type: 'string', default: '4' },
      duration: { type: 'string' },
      'position-hz': { type: 'string', default: '500' },
      seed: { type: 'string', default: '1' },
      'replay-rate': { type: 'string', default: '0.5' },
      'bin-cm': { type: 'string', default: '2' },
      'decode-last': { type: 'string' },
      'open-field': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const out = positionals[0];
  const int = (name: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min}, got ${v}`);
    return n;
  };
  if (!out) throw new Error(USAGE);
  const openField = values['open-field'] === true;
  const d = openField ? FIELD : TRACK_DEFAULTS;
  return {
    out,
    openField,
    spikes: Math.floor(int('spikes', values.spikes ?? String(d.spikes), 1)),
    electrodes: Math.floor(int('electrodes', values.electrodes ?? String(d.electrodes), 1)),
    features: Math.floor(int('features', values.features, 1)),
    durationS: int('duration', values.duration ?? String(d.durationS), 1),
    positionHz: int('position-hz', values['position-hz'], 1),
    seed: Math.floor(int('seed', values.seed, 0)),
    decodeLast: values['decode-last'] === undefined ? null : Math.min(1, int('decode-last', values['decode-last'], 1e-6)),
    replayRate: int('replay-rate', values['replay-rate'], 0),
    binCm: int('bin-cm', values['bin-cm'], 0.01),
  };
}

/** Laps on the linear track (placeSimulation.ts), replay sweeping from the ends. */
function trackRecording(o: Options): RecordingParts {
  const rng = new Rng(o.seed);
  const { time, position } = lapTrajectory(o.durationS, o.positionHz, rng);
  const { represented, events } = replayTrajectory(position, o.positionHz, o.replayRate, rng);
  const counts = spikeCountsPerElectrode(o.spikes, o.electrodes, rng);
  function* electrodes() {
    for (const n of counts) yield tetrodeSpikes(n, o.features, o.positionHz, represented, rng);
  }
  const meta = { generator: 'scripts/make-recording.ts', ...o, out: undefined, track_cm: TRACK_CM, replay_events: events };
  return { time, position, dims: 1, counts, electrodes: electrodes(), features: o.features, binCm: o.binCm, decodeLast: o.decodeLast, extra: [], meta };
}

/** The open field (openField.ts), with NLD's grid over every position sample written beside it. */
function openFieldRecording(o: Options): RecordingParts {
  const arena = FIELD.arena;
  const r = simulateOpenField({ ...o, arena });
  const grid = buildPlaceGrid2d(r.position, o.binCm);
  const bins = grid.centers.length / 2;
  const extra: [string, Uint8Array[]][] = [
    ['place_bin_centers.npy', [npyHeader('<f8', [bins, 2]), float64Bytes(grid.centers)]],
    ['is_track_interior.npy', [npyHeader('|b1', [bins]), grid.interior]],
  ];
  process.stderr.write(`open field ${arena.widthCm} × ${arena.heightCm} cm: grid ${grid.shape.join(' × ')} = ${bins} bins, ` +
    `${grid.interior.reduce((a, b) => a + b, 0)} interior; ${r.events.length} replay events\n`);
  const meta = {
    generator: 'scripts/make-recording.ts --open-field', ...o, out: undefined, arena_cm: [arena.widthCm, arena.heightCm],
    grid_shape: grid.shape, replay_events: r.events,
  };
  return {
    time: r.time, position: r.position, dims: 2, counts: r.counts, electrodes: r.electrodeSpikes(), features: o.features, binCm: o.binCm,
    decodeLast: o.decodeLast, extra, meta,
  };
}

async function main(): Promise<void> {
  const { openField, ...o } = options();
  const started = performance.now();
  const parts = openField ? openFieldRecording(o) : trackRecording(o);
  await writeRecording(o.out, parts);
  const seconds = (performance.now() - started) / 1000;
  const peakMb = process.resourceUsage().maxRSS / 1024;
  process.stderr.write(`wrote ${o.out}: ${o.spikes} spikes on ${o.electrodes} electrodes, ${parts.time.length} position samples in ${seconds.toFixed(1)} s (peak RSS ${peakMb.toFixed(0)} MB)\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
