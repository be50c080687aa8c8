/**
 * The roofline of a measured strategy: the work of each stage the model covers (stageWork.ts),
 * over the stage times the run recorded, against the backend's calibrated ceilings. A stage's time
 * is on its own clock: on webgpu the GPU's time of the stage's work (timestamp queries), not the
 * host's time to queue it; a stage whose time is not known (an untimed device) is left out. A stage's
 * attainable time is its GEMM flops at the matmul peak plus its exps and logs at their throughput
 * plus its elementwise bytes at the bandwidth (tfjs runs each op as its own pass, so the times
 * add); its peak is its flops over that time, and the ceiling named is the largest of the four.
 * Without a bandwidth figure, elementwise work has no ceiling and counts as free.
 */
import type { RunConfig, StrategyChoice } from '../../../shared/config';
import type { DatasetSummary } from '../../../shared/dataset';
import { isExternalEngineName } from '../../../shared/externalEngines';
import type { StageTime, StrategyResult } from '../../../shared/report';
import type { Calibration, RooflineCeiling, RooflineEntry, StageRoofline, StrategyRoofline } from '../../../shared/roofline';
import { addWork, scaleWork, totalFlops, type Work } from './opWork';
import { callStageWork, MODELLED_STAGES } from './stageWork';
import { strategyOptionsFor } from './strategyOptions';
import type { StrategyOptions } from './types';

export type { Calibration } from './calibrationTypes';

const GIGA = 1e9;

/** Seconds each kind of work needs at its calibrated rate; a rate not measured (or not positive) bounds nothing. */
export function ceilingSeconds(w: Work, c: Calibration): Record<RooflineCeiling, number> {
  const at = (amount: number, ratePerS: number | undefined): number =>
    ratePerS !== undefined && ratePerS > 0 && Number.isFinite(ratePerS) ? amount / ratePerS : 0;
  return {
    matmul: at(w.gemmFlops, c.matmulGflops * GIGA),
    exp: at(w.exps, c.expGelemsPerS * GIGA),
    log: at(w.logs, c.logGelemsPerS * GIGA),
    memory: at(w.streamBytes, c.bandwidthGBps === undefined ? undefined : c.bandwidthGBps * GIGA),
  };
}

/** Work done in timeMs, rated against the calibration. Every number is finite (0 where undefined). */
export function rooflineEntry(w: Work, timeMs: number, c: Calibration): RooflineEntry {
  const flops = totalFlops(w);
  const bound = ceilingSeconds(w, c);
  const kinds = Object.keys(bound) as RooflineCeiling[];
  const ceiling = kinds.reduce((best, k) => (bound[k] > bound[best] ? k : best), 'matmul' as RooflineCeiling);
  const boundS = kinds.reduce((sum, k) => sum + bound[k], 0);
  const seconds = timeMs / 1e3;
  return {
    flops,
    bytes: w.bytes,
    arithmeticIntensity: w.bytes > 0 ? flops / w.bytes : 0,
    timeMs,
    achievedGflops: seconds > 0 ? flops / seconds / GIGA : 0,
    peakGflops: boundS > 0 ? flops / boundS / GIGA : 0,
    fractionOfPeak: seconds > 0 ? boundS / seconds : 0,
    ceiling,
  };
}

export interface RooflineInput {
  strategy: StrategyChoice;
  /** the strategy's stage table over its timed repeats */
  stages: readonly StageTime[];
  dataset: DatasetSummary;
  options: StrategyOptions;
  calibration: Calibration;
}

/**
 * Per modelled stage and in total, over the timed calls. The number of fit + predict calls is the
 * `decode` stage's count in the same table (one decode span per call), so the work and the times
 * always cover the same calls. Undefined when the table has no decode span; a stage missing from
 * the table or without work is left out.
 */
export function strategyRoofline(input: RooflineInput): StrategyRoofline | undefined {
  const calls = input.stages.find((s) => s.name === 'decode')?.calls ?? 0;
  if (calls <= 0) return undefined;
  const perCall = callStageWork(input.strategy, input.dataset, input.options);
  const stages: StageRoofline[] = [];
  const measured: Work[] = [];
  let timeMs = 0;
  for (const stage of MODELLED_STAGES) {
    const time = input.stages.find((s) => s.name === stage);
    const modelled = scaleWork(perCall[stage], calls);
    // the engine's own count where it gave one (the same timed calls as the stage's time); the
    // series strategy's predict stages have no formula (its order and reach follow from the marks)
    // and appear only with their count
    const work: Work = time?.work ?? modelled;
    if (!time || time.clock === 'unsplit' || totalFlops(work) === 0) continue;
    stages.push({ stage, calls: time.calls, ...rooflineEntry(work, time.totalMs, input.calibration) });
    measured.push(work);
    timeMs += time.totalMs;
  }
  // the posterior's filter and smoother have no formula here: their spans count their own work
  for (const stage of COUNTED_STAGES) {
    const time = input.stages.find((s) => s.name === stage);
    if (!time?.work || time.clock === 'unsplit' || totalFlops(time.work) === 0) continue;
    stages.push({ stage, calls: time.calls, ...rooflineEntry(time.work, time.totalMs, input.calibration) });
    measured.push(time.work);
    timeMs += time.totalMs;
  }
  if (stages.length === 0) return undefined;
  return { ...rooflineEntry(addWork(...measured), timeMs, input.calibration), stages };
}

/** Stages outside the likelihood's model that appear in the roofline when their spans counted their work. */
export const COUNTED_STAGES = ['filter', 'smooth'] as const;

/** The roofline of one report entry, with the options the engine ran it with; undefined for a failed strategy. */
export function rooflineOfResult(
  result: Pick<StrategyResult, 'strategy' | 'status' | 'stages'>,
  dataset: DatasetSummary,
  config: RunConfig,
  calibration: Calibration,
): StrategyRoofline | undefined {
  // an external engine's stages are its own: the formulas describe the engine's strategies only
  if (result.status !== 'ok' || isExternalEngineName(result.strategy)) return undefined;
  const params = { positionStd: dataset.positionStd, waveformStd: dataset.waveformStd, blockSize: dataset.blockSize };
  const options = strategyOptionsFor({ params }, config);
  return strategyRoofline({ strategy: result.strategy, stages: result.stages, dataset, options, calibration });
}
