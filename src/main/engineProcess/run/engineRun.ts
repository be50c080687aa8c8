/**
 * The runs of the engine process. A profiling run loads the data, initializes the backend,
 * measures each strategy (strategyMeasure.ts), the local likelihood when asked, then the agreement
 * between strategies and, where the data carry the true position, how well each decodes, and last the
 * state-space posterior when asked, timed per posterior method (runPosterior.ts); a decode
 * run (decodeRun.ts) decodes a long recording in windows. Both record through a RunSession: trace
 * records stream out in batches as they are made, the outcome is sent once at the end, likelihood
 * arrays go to files. Cancellation is checked between steps.
 */
import type { StrategyChoice } from '../../../shared/config';
import { engineSlug } from '../../../shared/externalEngines';
import { summarizeDataset, type DatasetSummary } from '../../../shared/dataset';
import type { BackendInfo, Report } from '../../../shared/report';
import { agreementMatrix, compareArrays, decodingAccuracy, truePositionAtRows } from '../../analysis';
import { predictedCallMs } from '../../engine/model';
import type { EngineOutcome, EngineToHost, StartMessage } from '../../engineProtocol';
import { startDecodeRun } from '../decode';
import { comparePosteriorEngines, externalUnits, measureExternalEngines, type ExternalSink } from '../external';
import { nicenessOf, startRunSession, type EngineDeps, type EngineRun, type RunSession } from '../session';
import { refuseBeyondDisk, writeAxes, writeLikelihood } from '../runFiles';
import { bothSizes, posteriorOutputSize } from './posteriorOutputs';
import { savedLikelihoodSize } from './savedLikelihoods';
import {
  LOCAL_GROUP, localRatioToNonlocal, measureLocal, measureStrategies, notApplicableFor, POSTERIOR_GROUP, posteriorUnits, ProgressTracker, runPosterior,
  type LocalMeasurement, type MeasureContext, type ProgressGroup, type StrategyMeasurement,
} from '../measurement';

/** Starts the run the start message asks for: a decode run, or the profiling loop. */
export function startEngineRun(start: StartMessage, deps: EngineDeps, send: (message: EngineToHost) => void): EngineRun {
  if (start.decode) return startDecodeRun(start, start.decode, deps, send);
  const tracker = new ProgressTracker(progressGroups(start));
  return startRunSession(start, deps, send, (within, detail) => tracker.snapshot(within, detail), (session) =>
    profile(session, start, deps, tracker),
  );
}

/** The work model's time for one call of each strategy: what its progress group's units are expected to take relative to each other. */
function predictedUnitMs(strategies: readonly StrategyChoice[], summary: DatasetSummary, options: MeasureContext['options']): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of strategies) {
    const ms = predictedCallMs(s, summary, options);
    if (ms !== undefined) out[s] = ms;
  }
  return out;
}

/** One group per strategy (cold, warm-ups, repeats, kernel profile), plus local and the posterior when asked. */
function progressGroups({ config }: StartMessage): ProgressGroup[] {
  const timedCalls = 1 + config.warmup + config.repeats;
  // the kernel profile takes the last warmup's place; without a warmup it is one call more
  const profileCalls = config.kernelProfile !== false && config.warmup === 0 ? 1 : 0;
  const groups: ProgressGroup[] = config.strategies.map((s) => ({ name: s, units: timedCalls + profileCalls }));
  for (const e of config.engines ?? []) groups.push({ name: e, units: externalUnits(config) });
  if (config.local) groups.push({ name: LOCAL_GROUP, units: timedCalls });
  if (config.posterior) groups.push({ name: POSTERIOR_GROUP, units: posteriorUnits(config.posterior, config.local) });
  return groups;
}

async function profile(session: RunSession, start: StartMessage, deps: EngineDeps, tracker: ProgressTracker): Promise<EngineOutcome> {
  const { config, runDir } = start;
  const { dataset, backend, memory, calibration, deps: compute, workers, tf32, niceness } = await session.loadInputs();
  const saved = savedLikelihoodSize(config, dataset.time.length, dataset.placeBinCenters.length / dataset.positionDims);
  const written = bothSizes(saved, posteriorOutputSize(config, dataset));
  if (written) await refuseBeyondDisk(runDir, written, { work: 'the run', orElse: `run without ${saved ? '--save-likelihood' : 'the posterior (--model none)'}` });
  const ctx: MeasureContext = {
    deps: compute, dataset, config, tracker, memory, rec: session.probe, spans: session.spans, signal: session.signal,
    // auto rates each electrode's candidates at this backend's calibrated throughput
    options: { ...deps.strategyOptionsFor(dataset, config), calibration },
    backendName: backend.name,
    emitProgress: () => session.emitProgress(),
  };
  // after each round of repeats the host gets what was measured so far: a run that fails or is cancelled keeps it
  const summary = summarizeDataset(dataset);
  tracker.setPredicted(predictedUnitMs(config.strategies, summary, ctx.options));
  const external: ExternalSink = { records: (r) => session.sendRecords(r), log: (level, message) => session.log(level, message) };
  const measured = await measureAll(ctx, runDir, external, (so) =>
    session.sendPartial({ ...partialOutcome(summary, backend, so), calibration, workers, tf32, ...nicenessOf(niceness) }),
  );
  // the local likelihood is one pass over time rows, on this thread
  const local = config.local ? await measureLocal({ ...ctx, deps }) : undefined;
  const outcome = outcomeOf(ctx, summary, backend, measured);
  outcome.calibration = calibration;
  outcome.workers = workers;
  outcome.tf32 = tf32;
  Object.assign(outcome, nicenessOf(niceness));
  if (local) outcome.local = await localEntry(ctx, local, runDir, measured);
  // the axes (time, bins, true position) are what the Decode view draws a posterior against too
  if (config.saveLikelihood || config.posterior) await writeAxes(runDir, dataset);
  if (config.posterior) {
    // the likelihood's results are whole now: a posterior that fails or is cancelled leaves them in the report
    session.sendPartial(outcome);
    outcome.posterior = await runPosterior({
      ctx, engineDeps: deps, runDir, request: config.posterior, measured, ...(local ? { local: local.likelihood } : {}),
      onProgress: (within, detail) => session.emitProgress(within, detail),
    });
    await comparePosteriorEngines(measured, runDir, outcome.posterior);
  }
  return outcome;
}

/**
 * The strategies (their repeats interleaved), then each external engine, their likelihoods saved
 * when asked; then their agreement with the reference and with each other.
 */
async function measureAll(
  ctx: MeasureContext, runDir: string, external: ExternalSink, onMeasured: (soFar: StrategyMeasurement[]) => void,
): Promise<StrategyMeasurement[]> {
  const { nTime, nBins } = gridOf(ctx);
  const save = async (m: StrategyMeasurement, fileName: string) => {
    if (ctx.config.saveLikelihood && m.likelihood && m.likelihood.length === nTime * nBins) {
      m.result.likelihoodFile = await writeLikelihood(runDir, fileName, m.likelihood, nTime, nBins);
    }
  };
  const measured = await measureStrategies(ctx, ctx.config.strategies as StrategyChoice[], onMeasured);
  for (const m of measured) await save(m, m.result.strategy);
  onMeasured(measured);
  for (const m of await measureExternalEngines(ctx, runDir, external)) {
    await save(m, engineSlug(m.result.strategy));
    measured.push(m);
    onMeasured(measured);
  }
  agreementsWithReference(measured, nTime, nBins);
  accuraciesAgainstTruePosition(measured, ctx);
  return measured;
}

/** Each likelihood's decoded position against the true one, where the data know it at some row. */
function accuraciesAgainstTruePosition(measured: StrategyMeasurement[], ctx: MeasureContext): void {
  const { dataset } = ctx;
  const truePosition = truePositionAtRows(dataset);
  if (!truePosition.some((x) => !Number.isNaN(x))) return;
  const grid = { ...gridOf(ctx), binCenters: dataset.placeBinCenters, positionDims: dataset.positionDims };
  for (const m of measured) {
    if (!m.likelihood || m.likelihood.length !== grid.nTime * grid.nBins) continue;
    const accuracy = decodingAccuracy(m.likelihood, grid, truePosition);
    if (accuracy) m.result.accuracy = accuracy;
  }
}

function gridOf({ dataset }: MeasureContext): { nTime: number; nBins: number } {
  return { nTime: dataset.time.length, nBins: dataset.placeBinCenters.length / dataset.positionDims };
}

/** The strategies measured so far, without the comparisons that need them all (agreement, accuracy). */
function partialOutcome(dataset: DatasetSummary, backend: BackendInfo, measured: StrategyMeasurement[]): EngineOutcome {
  return {
    dataset,
    backend,
    strategies: measured.map((m) => m.result),
    notApplicable: notApplicableFor(backend),
    windows: measured.flatMap((m) => m.windows),
  };
}

function outcomeOf(ctx: MeasureContext, dataset: DatasetSummary, backend: BackendInfo, measured: StrategyMeasurement[]): EngineOutcome {
  const { nTime, nBins } = gridOf(ctx);
  const outcome = partialOutcome(dataset, backend, measured);
  const matrix = matrixOf(measured, nTime, nBins);
  if (matrix) outcome.agreementMatrix = matrix;
  return outcome;
}

async function localEntry(
  ctx: MeasureContext, local: LocalMeasurement, runDir: string, measured: readonly StrategyMeasurement[],
): Promise<NonNullable<Report['local']>> {
  // the report's shape: the engine outcome's local entry carries it to the report unchanged
  const entry: NonNullable<Report['local']> = { timing: local.timing };
  if (local.agreementWithExpected) entry.agreementWithExpected = local.agreementWithExpected;
  const ratio = localRatioToNonlocal(local, measured.map((m) => m.result));
  if (ratio) entry.ratioToNonlocal = ratio;
  if (ctx.config.saveLikelihood) entry.likelihoodFile = await writeLikelihood(runDir, 'local', local.likelihood, gridOf(ctx).nTime, 1);
  return entry;
}

/**
 * Each row against the reference strategy; an external engine, where the run has no reference,
 * against the first of the engine's own strategies that decoded (its disagreement is a finding).
 */
function agreementsWithReference(measured: StrategyMeasurement[], nTime: number, nBins: number): void {
  const decoded = measured.filter((m) => m.likelihood?.length === nTime * nBins);
  const ref = decoded.find((m) => m.result.strategy === 'reference');
  const ownFirst = ref ?? decoded.find((m) => !m.result.external);
  for (const m of decoded) {
    const against = m.result.external ? ownFirst : ref;
    if (!against || m === against) continue;
    m.result.agreementWithReference = compareArrays(m.likelihood!, against.likelihood!, nTime, nBins, against.result.strategy);
  }
}

function matrixOf(measured: StrategyMeasurement[], nTime: number, nBins: number): EngineOutcome['agreementMatrix'] {
  const ok = measured.filter((m) => m.likelihood && m.likelihood.length === nTime * nBins);
  if (ok.length < 2) return undefined;
  // the reference goes first: allclose treats the earlier entry as the reference side
  ok.sort((a, b) => Number(b.result.strategy === 'reference') - Number(a.result.strategy === 'reference'));
  return agreementMatrix(ok.map((m) => ({ name: m.result.strategy, values: m.likelihood! })), nTime, nBins);
}
