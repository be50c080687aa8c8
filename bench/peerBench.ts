/**
 * `npm run bench -- --peer`: the engine against its NumPy peer (bench/peer/kde_peer.py, a float32
 * linear reference on OpenBLAS) on the same .npz files, in one invocation. Each side runs in its
 * own process, so its peak RSS is its own; per data set the engine's best strategy is compared with
 * the peer (fit, predict, total, peak RSS), and everything is saved as JSON.
 *
 *   npm run bench -- --peer [nld] [--peer-data large,realistic] [--peer-production] [--decode-last 0.01]
 *     [--strategies reference,compensated,series,auto] [--backend wasm] [--repeats 3] [--warmup 1]
 *     [--production-repeats 1] [--production-warmup 0] [--cell-limit-s 600]
 *     [--cache-dir DIR] [--python python3] [--peer-threads N] [--reference-tool PATH]
 *     [--out bench/results/peer.json]
 *
 * The presets come from shared/tools/kde_reference.py (seed 5); --peer-production adds the
 * production recording of scripts/make-recording.ts (2.1 M spikes, 32 tetrodes) decoding its last
 * --decode-last fraction. Files are cached in --cache-dir (default: the system temp folder) and
 * made only when missing. The peer's OpenBLAS uses every core unless --peer-threads sets
 * OPENBLAS_NUM_THREADS.
 *
 * `--peer nld` adds non_local_detector on JAX (bench/peer/nld_peer.py) per --nld-variants
 * (default clusterless_kde), from --nld-src (default $KDE_PROFILER_NLD_SRC) with --nld-python
 * (default $KDE_PROFILER_NLD_PYTHON, else --python); where NLD is not importable it is skipped
 * with one line saying why.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AppError } from '../src/shared/errors';
import { presetFile, recordingFile, type DataTools } from './peer/peerData';
import { printDataset, printSummary, type DatasetOutcome } from './peer/peerTable';
import { runEngine, runNld, runPeer, type NldOptions, type SideOptions } from './peer/runSides';
import { isFailure, type EngineResult } from './peer/sideResults';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** true when the bench's arguments ask for the peer comparison instead of the strategy table */
export function wantsPeer(argv: string[]): boolean {
  return argv.includes('--peer') || argv.includes('--peer-production');
}

function options(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      peer: { type: 'boolean', default: false },
      'nld-variants': { type: 'string', default: 'clusterless_kde' },
      'nld-src': { type: 'string', default: process.env.KDE_PROFILER_NLD_SRC },
      'nld-python': { type: 'string', default: process.env.KDE_PROFILER_NLD_PYTHON },
      'peer-production': { type: 'boolean', default: false },
      'peer-data': { type: 'string', default: 'large,realistic' },
      'decode-last': { type: 'string', default: '0.01' },
      strategies: { type: 'string', default: 'reference,compensated,series,auto' },
      backend: { type: 'string', default: 'wasm' },
      workers: { type: 'string', default: String(availableParallelism()) },
      repeats: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '1' },
      'production-repeats': { type: 'string', default: '1' },
      'production-warmup': { type: 'string', default: '0' },
      'cell-limit-s': { type: 'string', default: '600' },
      'cache-dir': { type: 'string', default: join(tmpdir(), 'kde-profiler-peer-data') },
      python: { type: 'string', default: 'python3' },
      'peer-threads': { type: 'string' },
      'reference-tool': { type: 'string', default: resolve(REPO_ROOT, '..', 'shared', 'tools', 'kde_reference.py') },
      out: { type: 'string', default: 'bench/results/peer.json' },
    },
  });
  const count = (name: keyof typeof values, min: number): number => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min) throw new AppError('BAD_ARGUMENT', `--${name} must be an integer ≥ ${min}, got ${String(values[name])}.`);
    return n;
  };
  const decodeLast = Number(values['decode-last']);
  if (!(decodeLast > 0 && decodeLast <= 1)) throw new AppError('BAD_ARGUMENT', `--decode-last must be in (0, 1], got ${values['decode-last']}.`);
  const unknown = positionals.filter((p) => p !== 'nld');
  if (unknown.length > 0) throw new AppError('BAD_ARGUMENT', `--peer: the only other peer is nld (non_local_detector), got ${unknown.join(', ')}.`);
  const nld: NldOptions | null = positionals.includes('nld')
    ? { src: values['nld-src'], python: values['nld-python'] ?? values.python!, variants: values['nld-variants']!.split(',').filter(Boolean) }
    : null;
  return {
    nld,
    presets: values['peer-data']!.split(',').filter(Boolean),
    production: values['peer-production']!,
    decodeLast,
    strategies: values.strategies!.split(',').filter(Boolean),
    backend: values.backend!,
    workers: count('workers', 1),
    repeats: count('repeats', 1),
    warmup: count('warmup', 0),
    productionRepeats: count('production-repeats', 1),
    productionWarmup: count('production-warmup', 0),
    cellLimitS: Number(values['cell-limit-s']),
    peerThreads: values['peer-threads'] === undefined ? null : count('peer-threads', 1),
    out: values.out!,
    tools: { cacheDir: values['cache-dir']!, python: values.python!, referenceTool: values['reference-tool']!, repoRoot: REPO_ROOT } satisfies DataTools,
  };
}

type Options = ReturnType<typeof options>;

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** the best engine strategy by warm total, and its ratios to the peer */
function compare(o: Omit<DatasetOutcome, 'best' | 'ratios'>): DatasetOutcome {
  const ran = o.engine.filter((e): e is EngineResult => !isFailure(e) && e.totalMedianMs !== null);
  const best = ran.reduce<EngineResult | null>((a, e) => (a === null || e.totalMedianMs! < a.totalMedianMs! ? e : a), null);
  if (!best || isFailure(o.peer) || o.peer.totalMedianMs === null) return { ...o, best: best?.strategy ?? null, ratios: null };
  const p = o.peer;
  return {
    ...o,
    best: best.strategy,
    ratios: {
      fit: best.fitMedianMs! / p.fitMedianMs!,
      predict: best.predictMedianMs! / p.predictMedianMs!,
      total: best.totalMedianMs! / p.totalMedianMs!,
      peakRss: best.peakRssBytes / p.peakRssBytes,
    },
  };
}

/** NLD said once why it cannot run: the other data sets skip it without asking again */
let nldSkipped: string | null = null;

function nldSide(name: string, file: string, peerLl: string | null, sides: SideOptions, nld: NldOptions): DatasetOutcome['nld'] {
  if (nldSkipped !== null) return [];
  const out: DatasetOutcome['nld'] = [];
  for (const variant of nld.variants) {
    process.stderr.write(`${name}: nld ${variant}…\n`);
    const r = runNld(file, variant, peerLl, sides, nld);
    if ('skipped' in r && r.skipped) {
      nldSkipped = r.error;
      console.log(`NLD skipped: ${r.error} (give --nld-src PATH and --nld-python PATH, or set KDE_PROFILER_NLD_SRC and KDE_PROFILER_NLD_PYTHON)`);
      return [];
    }
    out.push(isFailure(r) ? { ...r, variant } : r);
  }
  return out;
}

function benchDataset(name: string, file: string, sides: SideOptions, opts: Options): DatasetOutcome {
  const llPath = join(opts.tools.cacheDir, `${name.replace(/[^\w.-]+/g, '_')}.peer-ll.npy`);
  const loadBefore = loadavg()[0]!;
  process.stderr.write(`${name}: numpy peer…\n`);
  let peer: DatasetOutcome['peer'];
  try {
    peer = runPeer(file, llPath, sides);
  } catch (e) {
    peer = { error: errorText(e) };
  }
  const engine: DatasetOutcome['engine'] = [];
  for (const strategy of opts.strategies) {
    process.stderr.write(`${name}: engine ${strategy} (${sides.backend})…\n`);
    try {
      engine.push(runEngine(file, strategy, isFailure(peer) ? null : llPath, sides));
    } catch (e) {
      engine.push({ strategy, error: errorText(e) });
    }
  }
  const nld = opts.nld ? nldSide(name, file, isFailure(peer) ? null : llPath, sides, opts.nld) : [];
  const outcome = compare({ name, file, peer, engine, nld, loadAverage: { before: loadBefore, after: loadavg()[0]! } });
  printDataset(outcome);
  return outcome;
}

export async function runPeerBench(argv: string[]): Promise<void> {
  const opts = options(argv);
  const sides: SideOptions = {
    repoRoot: REPO_ROOT, python: opts.tools.python, peerThreads: opts.peerThreads,
    backend: opts.backend, workers: opts.workers, repeats: opts.repeats, warmup: opts.warmup, cellLimitS: opts.cellLimitS,
  };
  const outcomes: DatasetOutcome[] = [];
  for (const preset of opts.presets) outcomes.push(benchDataset(preset, presetFile(preset, opts.tools), sides, opts));
  if (opts.production) {
    const file = recordingFile(opts.decodeLast, opts.tools);
    const productionSides = { ...sides, repeats: opts.productionRepeats, warmup: opts.productionWarmup };
    outcomes.push(benchDataset(`production (decode-last ${opts.decodeLast})`, file, productionSides, opts));
  }
  printSummary(outcomes);
  mkdirSync(dirname(opts.out), { recursive: true });
  const { tools, ...settings } = opts;
  writeFileSync(
    opts.out,
    JSON.stringify(
      { createdAt: new Date().toISOString(), node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? null, settings, cacheDir: tools.cacheDir, datasets: outcomes },
      null,
      2,
    ),
  );
  console.log(`\nsaved ${opts.out}`);
}
