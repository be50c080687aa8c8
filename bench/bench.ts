/**
 * `npm run bench`: fit + predict for each strategy × available backend on the presets, medians
 * over warm repeats, printed as a table with ratios to `reference` and saved as JSON; then the
 * tracing overhead on `medium` (recorder on vs off). Speed lives here, never in tests.
 *
 *   npm run bench -- [--presets tiny,small,medium,large] [--backends wasm,cpu,webgpu]
 *                    [--strategies all|a,b] [--repeats 3] [--warmup 1] [--cell-limit-s 60]
 *                    [--out bench/results/bench.json] [--no-overhead]
 *
 * `npm run bench -- --peer` compares the engine with its NumPy peer instead (peerBench.ts);
 * `npm run bench -- --posterior` times the filter and smoother (posteriorBench.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { PRESETS, STRATEGIES, type BackendName, type PresetName, type StrategyName } from '../src/shared/config';
import { makePreset } from '../src/main/data';
import { fitEncodingModel, initBackend, listBackends, predictNonlocal, type EngineProbe } from '../src/main/engine';
import { Recorder } from '../src/main/recorder';
import { runPeerBench, wantsPeer } from './peerBench';
import { runPosteriorBench, wantsPosterior } from './posteriorBench';
import { runWholeDecodeBench, wantsWholeDecode } from './wholeDecodeBench';
import { median, printTable, type Cell } from './table';

if (wantsPosterior(process.argv.slice(2))) {
  await runPosteriorBench(process.argv.slice(2));
  process.exit(0);
}

if (wantsWholeDecode(process.argv.slice(2))) {
  await runWholeDecodeBench(process.argv.slice(2));
  process.exit(0);
}

if (wantsPeer(process.argv.slice(2))) {
  await runPeerBench(process.argv.slice(2));
  process.exit(0);
}

const { values: args } = parseArgs({
  options: {
    presets: { type: 'string', default: 'tiny,small,medium,large' },
    backends: { type: 'string' },
    strategies: { type: 'string', default: 'all' },
    repeats: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    'cell-limit-s': { type: 'string', default: '60' },
    out: { type: 'string', default: 'bench/results/bench.json' },
    'no-overhead': { type: 'boolean', default: false },
  },
});

const presets = args.presets!.split(',').filter((p): p is PresetName => (PRESETS as readonly string[]).includes(p));
const strategies: StrategyName[] = args.strategies === 'all' ? [...STRATEGIES] : (args.strategies!.split(',') as StrategyName[]);
const repeats = Number(args.repeats);
const warmup = Number(args.warmup);
const cellLimitMs = Number(args['cell-limit-s']) * 1000;

async function timeOnce(ds: ReturnType<typeof makePreset>, strategy: StrategyName, probe?: EngineProbe): Promise<{ fitMs: number; predictMs: number }> {
  const t0 = performance.now();
  const model = await fitEncodingModel(ds, probe);
  const t1 = performance.now();
  (await predictNonlocal(model, ds, strategy, { blockSize: ds.params.blockSize }, probe)).release?.();
  const t2 = performance.now();
  model.dispose();
  return { fitMs: t1 - t0, predictMs: t2 - t1 };
}

async function benchCell(ds: ReturnType<typeof makePreset>, strategy: StrategyName): Promise<Cell> {
  const first = await timeOnce(ds, strategy);
  const totals: number[] = [];
  const fits: number[] = [];
  const predicts: number[] = [];
  const started = performance.now();
  // a cell that is already slow runs fewer repeats rather than hours: n says how many ran
  for (let i = 0; i < warmup + repeats; i++) {
    if (performance.now() - started > cellLimitMs) break;
    const r = await timeOnce(ds, strategy);
    if (i < warmup) continue;
    fits.push(r.fitMs);
    predicts.push(r.predictMs);
    totals.push(r.fitMs + r.predictMs);
  }
  if (totals.length === 0) totals.push(first.fitMs + first.predictMs);
  return {
    strategy,
    firstMs: first.fitMs + first.predictMs,
    fitMedianMs: median(fits.length ? fits : [first.fitMs]),
    predictMedianMs: median(predicts.length ? predicts : [first.predictMs]),
    totalMedianMs: median(totals),
    n: fits.length,
  };
}

/**
 * Tracing on vs off on `medium`: alternating pairs whose order flips every round, so drift and
 * other load on the machine fall on both sides; the ratio of medians is what the bench prints.
 */
async function tracingOverhead(
  rounds = 12,
): Promise<{ onMs: number; offMs: number; ratio: number; spans: number; rounds: number; perSpanUs: number }> {
  await initBackend('wasm');
  const ds = makePreset('medium', { seed: 42, features: 2, featureScale: 1 });
  const on: number[] = [];
  const off: number[] = [];
  let records = 0;
  for (let i = 0; i < 2; i++) await timeOnce(ds, 'compensated');
  const traced = async (): Promise<void> => {
    const rec = new Recorder({ proc: 'engine', onBatch: (b) => (records += b.length) });
    const a = await timeOnce(ds, 'compensated', rec);
    rec.close();
    on.push(a.fitMs + a.predictMs);
  };
  const untraced = async (): Promise<void> => {
    const b = await timeOnce(ds, 'compensated', new Recorder({ proc: 'engine', disabled: true }));
    off.push(b.fitMs + b.predictMs);
  };
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      await traced();
      await untraced();
    } else {
      await untraced();
      await traced();
    }
  }
  const onMs = median(on);
  const offMs = median(off);
  return { onMs, offMs, ratio: onMs / offMs, spans: Math.round(records / rounds), rounds, perSpanUs: await spanCostUs() };
}

/**
 * The recorder's own cost per span (an empty async function traced, minus the same untraced),
 * which times the records a call makes gives an overhead that machine load cannot hide.
 */
async function spanCostUs(n = 50_000): Promise<number> {
  const rec = new Recorder({ proc: 'engine', onBatch: () => undefined });
  const off = new Recorder({ proc: 'engine', disabled: true });
  const empty = async (): Promise<number> => 0;
  const timeLoop = async (r: Recorder): Promise<number> => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await r.span('s', empty);
    return performance.now() - t0;
  };
  await timeLoop(rec);
  const costs: number[] = [];
  for (let i = 0; i < 5; i++) costs.push(((await timeLoop(rec)) - (await timeLoop(off))) / n);
  rec.close();
  return median(costs) * 1000;
}

async function main(): Promise<void> {
  const available = (await listBackends()).filter((b) => b.available).map((b) => b.name);
  const backends = (args.backends?.split(',') as BackendName[] | undefined) ?? available.filter((b) => b !== 'cpu');
  const results: { backend: string; device: string; preset: string; cells: Cell[] }[] = [];
  for (const backend of backends) {
    if (!available.includes(backend)) {
      console.log(`skip ${backend}: not available here`);
      continue;
    }
    const info = await initBackend(backend);
    for (const preset of presets) {
      const ds = makePreset(preset, { seed: 42, features: 2, featureScale: 1 });
      const cells: Cell[] = [];
      for (const s of strategies) {
        process.stderr.write(`  ${backend} ${preset} ${s}…\n`);
        cells.push(await benchCell(ds, s));
      }
      results.push({ backend, device: info.device, preset, cells });
      printTable(`${backend} (${info.device}) · ${preset}`, cells);
    }
  }
  const overhead = args['no-overhead'] ? null : await tracingOverhead();
  if (overhead) {
    console.log(
      `\ntracing overhead (medium, compensated, wasm, median of ${overhead.rounds} alternating pairs): on ${overhead.onMs.toFixed(1)} ms, ` +
        `off ${overhead.offMs.toFixed(1)} ms, ratio ${overhead.ratio.toFixed(4)} (${((overhead.ratio - 1) * 100).toFixed(2)} %), ` +
        `${overhead.spans} records per call`,
    );
    const direct = (overhead.spans * overhead.perSpanUs) / 1000 / overhead.offMs;
    console.log(
      `recorder cost ${overhead.perSpanUs.toFixed(2)} µs per span × ${overhead.spans} records = ` +
        `${((overhead.spans * overhead.perSpanUs) / 1000).toFixed(3)} ms per call: ${(direct * 100).toFixed(3)} % of the untraced call`,
    );
  }
  mkdirSync(dirname(args.out!), { recursive: true });
  writeFileSync(
    args.out!,
    JSON.stringify({ createdAt: new Date().toISOString(), node: process.version, repeats, warmup, results, tracingOverhead: overhead }, null, 2),
  );
  console.log(`\nsaved ${args.out}`);
}

await main();
process.exit(0);
