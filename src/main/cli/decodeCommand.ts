/**
 * `kde-profiler decode`: the production path for a long recording. Fits once, decodes the grid in
 * windows of rows and streams each window's likelihood into DIR/likelihood/<strategy>.npy, with
 * progress and an ETA on stderr; ends with load, fit and decode times and the peak RSS in
 * DIR/decode.json. Runs in this process: memory stays bounded by the window, the strategy's tiles
 * and the dataset itself. A failure leaves `<file>.partial` with the rows written so far.
 */
import { mkdir, open, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { summarizeDataset } from '../../shared/dataset';
import { estimateDatasetPeak, strategyOptionsFor } from '../engine/model';
import { datasetScale } from '../analysis';
import { loadDataset, npyHeader, PRESET_INFO } from '../data';
import { boolFlag, intFlag, parseFlags, stringFlag } from './args';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { resolveNwbData } from './nwbData';
import { ProgressLine } from './progressLine';
import { RUN_OPTIONS, runConfigFromFlags } from './runFlags';

const DECODE_USAGE = `kde-profiler decode --data FILE.npz|FILE.nwb|preset:NAME [--recipe FILE.recipe.json] [--strategy NAME|auto]
                    [--backend auto|wasm|cpu|webgpu|tensorflow] [--block-size N] [--enc-tile N]
                    [--pos-tile N] [--memory-budget-mb MB] [--rows-per-chunk N] --out DIR`;

const OPTIONS = {
  data: RUN_OPTIONS.data,
  recipe: RUN_OPTIONS.recipe,
  seed: RUN_OPTIONS.seed,
  features: RUN_OPTIONS.features,
  'feature-scale': RUN_OPTIONS['feature-scale'],
  backend: RUN_OPTIONS.backend,
  strategy: RUN_OPTIONS.strategy,
  'block-size': RUN_OPTIONS['block-size'],
  'enc-tile': RUN_OPTIONS['enc-tile'],
  'pos-tile': RUN_OPTIONS['pos-tile'],
  'memory-budget-mb': RUN_OPTIONS['memory-budget-mb'],
  'rows-per-chunk': { type: 'string' },
  out: RUN_OPTIONS.out,
  help: RUN_OPTIONS.help,
} as const;

const peakRssBytes = (): number => process.resourceUsage().maxRSS * 1024;

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, OPTIONS);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${DECODE_USAGE}\n`);
    return EXIT.ok;
  }
  const outFlag = stringFlag(flags, 'out');
  if (outFlag === undefined) throw new UsageError('--out DIR is required: the likelihood is written there');
  const config = runConfigFromFlags({ ...flags, values: { ...flags.values, strategy: flags.values.strategy ?? 'auto' } });
  if (config.strategies.length !== 1) throw new UsageError('--strategy: decode takes one strategy (or auto)');
  if (config.data.kind === 'file') config.data = { kind: 'file', path: resolve(io.cwd, config.data.path) };
  config.data = await resolveNwbData(config.data, stringFlag(flags, 'recipe'), io.cwd);
  const rowsPerChunk = intFlag(flags, 'rows-per-chunk', 2) ?? 2000;
  const outDir = resolve(io.cwd, outFlag);
  const strategy = config.strategies[0]!;
  const progress = new ProgressLine(io.stderr);
  const started = Date.now();

  const t0 = performance.now();
  const dataset = await loadDataset(config.data, {
    onProgress: (p) =>
      progress.update({ fraction: (0.1 * p.electrode) / p.nElectrodes, label: `loading electrode ${p.electrode}/${p.nElectrodes}`, elapsedMs: Date.now() - started }),
  });
  const loadMs = performance.now() - t0;
  const summary = summarizeDataset(dataset);
  const engine = await import('../engine');
  const options = strategyOptionsFor(dataset, config);
  const estimate = estimateDatasetPeak(strategy, summary, options);
  io.stderr.write(`${summary.name}: ${datasetScale(summary, PRESET_INFO).sentence}\n`);
  io.stderr.write(`estimated peak device memory for ${estimate.strategy}: ${(estimate.deviceBytes / 2 ** 20).toFixed(1)} MiB (${estimate.formula})\n`);

  const backend = await engine.initBackend(config.backend);
  const t1 = performance.now();
  // the fit reports through spans: each electrode's span start is a progress step
  const nElectrodes = dataset.electrodes.length;
  const fitProbe = {
    ...engine.NULL_PROBE,
    span: async <T,>(name: string, fn: () => Promise<T> | T): Promise<T> => {
      const m = /^electrode (\d+)$/.exec(name);
      if (m) {
        const k = Number(m[1]) + 1;
        progress.update({ fraction: 0.1 * (1 + k / nElectrodes), label: `fitting electrode ${k}/${nElectrodes}`, elapsedMs: Date.now() - started });
      }
      return fn();
    },
  };
  const model = await engine.fitEncodingModel(dataset, fitProbe);
  const fitMs = performance.now() - t1;

  await mkdir(join(outDir, 'likelihood'), { recursive: true });
  const file = join(outDir, 'likelihood', `${strategy}.npy`);
  const partial = `${file}.partial`;
  const handle = await open(partial, 'w');
  const t2 = performance.now();
  let summaryOut;
  try {
    await handle.write(npyHeader('<f4', [summary.nTime, summary.nBins]));
    const totalRows = summary.nTime;
    summaryOut = await engine.predictNonlocalWindows(model, dataset, strategy, options, rowsPerChunk, async (r0, rows, values) => {
      const f32 = Float32Array.from(values);
      await handle.write(new Uint8Array(f32.buffer, f32.byteOffset, f32.byteLength));
      const done = (r0 + rows) / totalRows;
      const elapsed = performance.now() - t2;
      progress.update({
        fraction: 0.2 + 0.8 * done,
        label: `decoding rows ${r0 + rows}/${totalRows}`,
        // decode time grows with rows decoded so far: the rest at the same pace
        etaMs: done > 0 ? (elapsed * (1 - done)) / done : undefined,
        elapsedMs: Date.now() - started,
      });
    });
    await handle.close();
    await rename(partial, file);
  } catch (e) {
    await handle.close().catch(() => undefined);
    io.stderr.write(`decode failed; the rows written so far are in ${partial}\n`);
    throw e;
  } finally {
    model.dispose();
    progress.done();
  }
  const decodeMs = performance.now() - t2;
  const result = {
    dataset: summary,
    scale: datasetScale(summary, PRESET_INFO).sentence,
    backend,
    strategy,
    resolved: summaryOut.resolved,
    estimatedPeakDeviceBytes: estimate.deviceBytes,
    estimateFormula: estimate.formula,
    rowsPerChunk,
    windows: summaryOut.windows,
    floorShare: summaryOut.totalTerms > 0 ? summaryOut.flooredTerms / summaryOut.totalTerms : null,
    loadMs,
    fitMs,
    decodeMs,
    peakRssBytes: peakRssBytes(),
    likelihoodFile: `likelihood/${strategy}.npy`,
    shape: [summary.nTime, summary.nBins],
  };
  await writeFile(join(outDir, 'decode.json'), `${JSON.stringify(result, null, 2)}\n`);
  io.stdout.write(
    `${summary.name}: ${summary.nElectrodes} electrodes, ${summary.nEncodingSpikes + summary.nDecodingSpikes} spikes, ` +
      `${summary.nTime} rows × ${summary.nBins} bins on ${backend.name} (${backend.device})\n` +
      `load ${(loadMs / 1000).toFixed(2)} s · fit ${(fitMs / 1000).toFixed(2)} s · decode ${(decodeMs / 1000).toFixed(2)} s ` +
      `(${strategy} → ${[...new Set(summaryOut.resolved)].join(', ')}) · peak RSS ${(result.peakRssBytes / 2 ** 20).toFixed(0)} MiB\n` +
      `likelihood: ${file}\n`,
  );
  return EXIT.ok;
}

export const decodeCommand: CliCommand = {
  summary: 'decode a long recording in windows, streaming the likelihood to disk',
  usage: DECODE_USAGE,
  run: execute,
};
