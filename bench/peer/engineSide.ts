/**
 * The engine's side of the peer bench, one strategy per process so that its peak RSS is its own:
 * loads a clusterless-npz/1 file with the project's loader, times fitEncodingModel + predictNonlocal
 * as bench.ts does (first call apart, then warmup and repeats), compares the last likelihood with
 * the peer's and with the file's float64 expected output, and prints one JSON line on stdout.
 *
 *   node --import tsx bench/peer/engineSide.ts FILE --strategy auto [--backend wasm] [--repeats 3]
 *     [--warmup 1] [--cell-limit-s 600] [--peer-ll PEER.npy] [--workers N] [--stage-sync]
 *
 * Stages do not wait for the device (a decode's and a run's setting): on webgpu the device then
 * sums each predict's rows and the likelihood is read back once. --stage-sync waits at each stage.
 * On webgpu the result says what the device did in the last call. `auto` measures its candidates on
 * a slice of the file first, as `run` and `decode` do, in its first call.
 *
 * With --workers N > 1 the electrodes are spread over the engine pool's N worker threads, as a run
 * does by default on CPU backends (one per core).
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { STRATEGY_CHOICES, type BackendName, type StrategyChoice } from '../../src/shared/config';
import type { Calibration, ProbedStrategy } from '../../src/main/engine/model';
import type { Dataset } from '../../src/shared/dataset';
import { AppError } from '../../src/shared/errors';
import { loadDataset, parseNpy } from '../../src/main/data';
import { activitySince, gpuActivity, type NonlocalResult } from '../../src/main/engine';
import { fitOptionsFor, probeAutoStrategy, realEngineDeps, type EngineDeps } from '../../src/main/engineProcess';
import { deviation, medianOrNull, type EngineResult } from './sideResults';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    strategy: { type: 'string', default: 'auto' },
    backend: { type: 'string', default: 'wasm' },
    repeats: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    'cell-limit-s': { type: 'string', default: '600' },
    'peer-ll': { type: 'string' },
    workers: { type: 'string', default: '1' },
    'stage-sync': { type: 'boolean', default: false },
    // the backend calibration auto's cost model reads, kept as a run keeps it (measured once a week)
    'calibration-dir': { type: 'string', default: join(tmpdir(), 'kde-profiler-bench-calibration') },
  },
});

function strategyArg(): StrategyChoice {
  const s = args.strategy!;
  if (!(STRATEGY_CHOICES as readonly string[]).includes(s)) {
    throw new AppError('BAD_ARGUMENT', `engineSide: --strategy ${s} is not one of ${STRATEGY_CHOICES.join(', ')}.`);
  }
  return s as StrategyChoice;
}

/**
 * `auto`'s probe as `run` and `decode` make it: once, in the first call (part of what auto's first
 * call costs), its choice kept for the calls after. Without it this side would time the cost
 * model's choice alone, which is not what a lab's decode runs.
 */
let autoProbed: ProbedStrategy | null | undefined;

async function timeOnce(
  deps: EngineDeps, ds: Dataset, strategy: StrategyChoice, calibration: Calibration,
): Promise<{ fitMs: number; predictMs: number; result: NonlocalResult }> {
  const t0 = performance.now();
  const model = await deps.fitEncodingModel(ds, undefined, fitOptionsFor(strategy, undefined));
  const t1 = performance.now();
  const options = { blockSize: ds.params.blockSize, calibration, stageSync: args['stage-sync'] };
  if (strategy === 'auto' && autoProbed === undefined) autoProbed = (await probeAutoStrategy(deps, model, ds, options))?.probed ?? null;
  const probed = strategy === 'auto' && autoProbed ? { probed: autoProbed } : {};
  const result = await deps.predictNonlocal(model, ds, strategy, { ...options, ...probed });
  const t2 = performance.now();
  model.dispose();
  return { fitMs: t1 - t0, predictMs: t2 - t1, result };
}

function readPeerLikelihood(path: string): Float64Array {
  const npy = parseNpy(new Uint8Array(readFileSync(path)), { file: path });
  if (!(npy.data instanceof Float64Array)) {
    throw new AppError('BAD_ARGUMENT', `engineSide: ${path} does not hold a numeric array; pass the .npy kde_peer.py wrote with --save-ll.`);
  }
  return npy.data;
}

function countResolved(resolved: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of resolved) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

async function main(): Promise<void> {
  const file = positionals[0];
  if (!file) throw new AppError('BAD_ARGUMENT', 'engineSide: give the .npz file to time as the first argument.');
  const strategy = strategyArg();
  const repeats = Number(args.repeats);
  const warmup = Number(args.warmup);
  const cellLimitMs = Number(args['cell-limit-s']) * 1000;
  const base = await realEngineDeps();
  const backend = await base.initBackend(args.backend as BackendName);
  const calibration = await base.calibrate(backend, args['calibration-dir']!, (m) => process.stderr.write(`${m}\n`));
  const workers = Number(args.workers);
  const pool = workers > 1
    ? await base.startWorkers!({ workers, backend: backend.name, originNs: '0', trace: false, onRecords: () => undefined })
    : undefined;
  const deps = pool?.deps ?? base;
  const t0 = performance.now();
  const ds = await loadDataset({ kind: 'file', path: file });
  const loadMs = performance.now() - t0;

  const first = await timeOnce(deps, ds, strategy, calibration);
  let last = first.result;
  const fitMs: number[] = [];
  const predictMs: number[] = [];
  const started = performance.now();
  let lastActivity: EngineResult['gpu'];
  // a side that is already slow runs fewer repeats rather than hours: the sample count says how many ran
  for (let i = 0; i < warmup + repeats && performance.now() - started < cellLimitMs; i++) {
    // only the last likelihood is compared: the one before hands its memory to this call
    last.release?.();
    const before = gpuActivity();
    const r = await timeOnce(deps, ds, strategy, calibration);
    if (before) lastActivity = activitySince(before, gpuActivity()!);
    last = r.result;
    if (i < warmup) continue;
    fitMs.push(r.fitMs);
    predictMs.push(r.predictMs);
  }
  const totalMs = fitMs.map((f, i) => f + predictMs[i]!);
  const out: EngineResult = {
    strategy,
    backend: backend.name,
    device: backend.device,
    resolved: countResolved(last.resolved),
    ...(last.resolvedReasons?.some(Boolean) ? { reasons: [...new Set(last.resolvedReasons.filter(Boolean))] } : {}),
    loadMs,
    firstFitMs: first.fitMs,
    firstPredictMs: first.predictMs,
    fitMs,
    predictMs,
    totalMs,
    fitMedianMs: medianOrNull(fitMs),
    predictMedianMs: medianOrNull(predictMs),
    totalMedianMs: medianOrNull(totalMs),
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    workers,
    stageSync: args['stage-sync'],
    ...(lastActivity ? { gpu: lastActivity } : {}),
  };
  if (args['peer-ll']) out.vsPeer = deviation(last.logLikelihood, readPeerLikelihood(args['peer-ll']));
  if (ds.expected?.logLikelihoodNonlocal) out.vsExpected = deviation(last.logLikelihood, ds.expected.logLikelihoodNonlocal);
  await pool?.stop();
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
