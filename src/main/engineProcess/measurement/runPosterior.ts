/**
 * The posterior stage of a profiling run (`run --model`): the state-space posterior on a likelihood
 * the run measured, filtered and smoothed once per posterior method with the decode's own stage,
 * each method under its own span so its filter and smoother windows show on the timeline apart, then
 * the methods' acausal posteriors compared row window by row window (never whole in memory).
 * The last method's outputs stay in posterior/ of the run folder; what the others wrote, and the
 * likelihood file written only for this stage, go when it ends.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PosteriorRequest } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { AppError } from '../../../shared/errors';
import type { PosteriorMethodTiming, PosteriorReport } from '../../../shared/posteriorReport';
import { hasOneBinLocal } from '../../../shared/posteriorParameters';
import { DEFAULT_ROWS_PER_WINDOW } from '../../engine/model';
import { POSTERIOR_FILES, POSTERIOR_WORK_DIR, POSTERIOR_WORK_LIKELIHOOD, type PosteriorSummary } from '../../engineProtocol';
import type { EngineDeps } from '../session';
import { nextStep, type MeasureContext } from './measureContext';
import { decodePosterior } from '../posterior';
import { RowFileReader, RowFileWriter } from '../runFiles';
import type { StrategyMeasurement } from './strategyMeasure';

export const POSTERIOR_GROUP = 'posterior';

/** the decode's default window: the filter and smoother spans of a run and of a decode cover alike */
const ROWS_PER_WINDOW = DEFAULT_ROWS_PER_WINDOW;

export interface RunPosteriorInputs {
  ctx: MeasureContext;
  /** the engine thread's own deps: the local likelihood cannot use a pool worker's models */
  engineDeps: EngineDeps;
  runDir: string;
  request: PosteriorRequest;
  measured: readonly StrategyMeasurement[];
  /** the Local state's likelihood when the run measured it already (`--local`) */
  local?: Float64Array;
  /** progress within the current unit of the posterior group */
  onProgress(within: number, detail: string): void;
}

/** Units of the progress bar the stage takes: one per method, and the Local likelihood when it must compute it. */
export function posteriorUnits(request: PosteriorRequest, localMeasured: boolean): number {
  return request.methods.length + (hasOneBinLocal(request.model, request.parameters) && !localMeasured ? 1 : 0);
}

/** The likelihood the posterior runs on: the reference's when it was measured, else the first that succeeded. */
function sourceOf(measured: readonly StrategyMeasurement[], size: number): StrategyMeasurement {
  const usable = measured.filter((m) => m.result.status === 'ok' && m.likelihood?.length === size);
  const source = usable.find((m) => m.result.strategy === 'reference') ?? usable[0];
  if (!source) throw new AppError('RUN_FAILED', 'the posterior needs a likelihood, and no strategy of this run produced one');
  return source;
}

/**
 * The float32 row file the posterior stage reads: the one --save-likelihood wrote, else one written
 * for the stage a window of rows at a time, so a big run holds no second whole copy of its likelihood.
 */
async function likelihoodFileOf(inp: RunPosteriorInputs, source: StrategyMeasurement, nTime: number, nBins: number): Promise<string> {
  if (source.result.likelihoodFile) return join(inp.runDir, source.result.likelihoodFile);
  const writer = await RowFileWriter.create(join(inp.runDir, POSTERIOR_WORK_LIKELIHOOD), nTime, nBins);
  try {
    const values = source.likelihood!;
    for (let start = 0; start < nTime; start += ROWS_PER_WINDOW) {
      const end = Math.min(nTime, start + ROWS_PER_WINDOW);
      await writer.write(start, Float32Array.from(values.subarray(start * nBins, end * nBins)));
    }
    await writer.finish();
  } catch (e) {
    await writer.abandon();
    throw e;
  }
  return writer.file;
}

async function localLikelihood(inp: RunPosteriorInputs): Promise<{ values: Float64Array; ms?: number }> {
  if (inp.local) return { values: inp.local };
  const { ctx, engineDeps } = inp;
  await nextStep(ctx.signal);
  ctx.tracker.beginUnit(POSTERIOR_GROUP, "local likelihood (the detector's Local state)");
  ctx.emitProgress();
  const t0 = performance.now();
  const values = await ctx.rec.span('local', async () => {
    const model = await ctx.rec.span('encode', () => engineDeps.fitEncodingModel(ctx.dataset, ctx.rec));
    try {
      return await ctx.rec.span('decode', () => engineDeps.predictLocal(model, ctx.dataset, ctx.rec));
    } finally {
      model.dispose();
    }
  }, { for: 'posterior' });
  ctx.tracker.endUnit();
  return { values, ms: performance.now() - t0 };
}

/** Where a method's outputs go: the run folder for the last, scratch for the ones before it. */
function outputDirOf(inp: RunPosteriorInputs, index: number): string {
  const last = index === inp.request.methods.length - 1;
  return last ? inp.runDir : join(inp.runDir, POSTERIOR_WORK_DIR, inp.request.methods[index]!);
}

async function runMethod(
  inp: RunPosteriorInputs, index: number, likelihoodFile: string, local: Float64Array | undefined,
): Promise<PosteriorSummary> {
  const { ctx, request } = inp;
  const method = request.methods[index]!;
  await nextStep(ctx.signal);
  ctx.tracker.beginUnit(POSTERIOR_GROUP, method);
  ctx.emitProgress();
  const summary = await ctx.rec.span(`posterior ${method}`, () => decodePosterior({
    runDir: outputDirOf(inp, index),
    dataset: ctx.dataset,
    model: request.model,
    method,
    ...(request.parameters ? { parameters: request.parameters } : {}),
    likelihoodFile,
    ...(local ? { local } : {}),
    rowsPerChunk: ROWS_PER_WINDOW,
    probe: ctx.rec,
    signal: ctx.signal,
    onProgress: (fraction, detail) => inp.onProgress(fraction, detail),
  }), { model: request.model, method });
  ctx.tracker.endUnit();
  ctx.emitProgress();
  return summary;
}

/** Filter and smoother once per method; the report of the structured one (or the only one), with every method's times. */
export async function runPosterior(inp: RunPosteriorInputs): Promise<PosteriorReport> {
  const { dataset } = inp.ctx;
  const nTime = dataset.time.length;
  const nBins = dataset.placeBinCenters.length / dataset.positionDims;
  try {
    const source = sourceOf(inp.measured, nTime * nBins);
    const likelihoodFile = await likelihoodFileOf(inp, source, nTime, nBins);
    // the multi-bin Local state (a position std) reads the non-local likelihood through a kernel, not the one-bin Local likelihood
    const local = hasOneBinLocal(inp.request.model, inp.request.parameters) ? await localLikelihood(inp) : undefined;
    const summaries: PosteriorSummary[] = [];
    for (let i = 0; i < inp.request.methods.length; i++) summaries.push(await runMethod(inp, i, likelihoodFile, local?.values));
    await nextStep(inp.ctx.signal);
    const timings = await timingsOf(inp, summaries, dataset);
    const reported = summaries.find((s) => s.method === 'structured') ?? summaries[0]!;
    return { ...reported, ...(local?.ms !== undefined ? { localMs: local.ms } : {}), methods: timings };
  } finally {
    await rm(join(inp.runDir, POSTERIOR_WORK_DIR), { recursive: true, force: true });
  }
}

async function timingsOf(inp: RunPosteriorInputs, summaries: readonly PosteriorSummary[], dataset: Dataset): Promise<PosteriorMethodTiming[]> {
  const acausalOf = (i: number) => join(outputDirOf(inp, i), POSTERIOR_FILES.acausal);
  const timings: PosteriorMethodTiming[] = [];
  for (const [i, s] of summaries.entries()) {
    const maxAbsDiffToFirst = i === 0 ? 0 : await maxAbsDiff(acausalOf(0), acausalOf(i), dataset.time.length);
    timings.push({ method: s.method, filterMs: s.filterMs, smoothMs: s.smoothMs, maxAbsDiffToFirst });
  }
  return timings;
}

/**
 * Largest |a − b| over two row files of one shape, read a window of rows at a time. Columns outside
 * the track are NaN in both and are skipped; NaN where only one of them is NaN.
 */
export async function maxAbsDiff(fileA: string, fileB: string, rows: number): Promise<number> {
  const a = await RowFileReader.open(fileA);
  try {
    const b = await RowFileReader.open(fileB);
    try {
      if (a.rows !== rows || b.rows !== rows || a.cols !== b.cols) {
        throw new AppError('INTERNAL', `${fileA} is ${a.rows} × ${a.cols} and ${fileB} ${b.rows} × ${b.cols}: they cannot be compared`);
      }
      let max = 0;
      for (let start = 0; start < rows; start += ROWS_PER_WINDOW) {
        const count = Math.min(ROWS_PER_WINDOW, rows - start);
        const x = await a.read(start, count);
        const y = await b.read(start, count);
        for (let k = 0; k < x.length; k++) {
          const d = Math.abs(x[k]! - y[k]!);
          if (d > max) max = d;
          else if (Number.isNaN(d) && Number.isNaN(x[k]!) !== Number.isNaN(y[k]!)) return Number.NaN;
        }
      }
      return max;
    } finally {
      await b.close();
    }
  } finally {
    await a.close();
  }
}
