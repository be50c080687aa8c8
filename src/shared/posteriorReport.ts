/**
 * The posterior part of a run's report (report.json, report.md, the Results view): what a decode's
 * state-space posterior was and how well it decoded. Kept beside report.ts, which re-exports it.
 */
import type { PosteriorMethod, PosteriorModel } from './config';
import type { DecodingAccuracy } from './report';

/**
 * The state-space posterior a decode ended with (`decode --model`): what a lab reads of it. The
 * posteriors themselves are .npy files in the run folder.
 */
export interface PosteriorReport {
  model: PosteriorModel;
  /** how the filter and smoother applied the transition matrix (`strategy` in reports written before) */
  method: PosteriorMethod;
  /** state names in the posterior files' column order */
  states: string[];
  /** time rows decoded */
  rows: number;
  /** columns of the posterior files (every state bin), and the HMM's size N (those inside the track) */
  nStateBins: number;
  nInteriorStateBins: number;
  /** log p(spikes) under the model, from the causal filter */
  marginalLogLikelihood: number;
  filterMs: number;
  smoothMs: number;
  /** what NLD's dense N × N float32 transition matrix would take */
  denseTransitionBytes: number;
  /** the model's parameters as the decode used them (NLD's defaults where none was given) */
  /** localPositionStd: the multi-bin Local state's kernel std, where the decode gave one */
  parameters?: { movementVar: number; noSpikeRate: number; discreteTransition: number[][]; localPositionStd?: number };
  /** the detector's Local-state likelihood, which runs before the filter */
  localMs?: number;
  /**
   * The posterior stage's own memory: the estimate from the state space and the window size, beside
   * the largest growth of the engine's typed-array memory measured during the stage (sampled at each
   * window's fullest point).
   */
  memory?: { estimatedBytes: number; formula: string; measuredBytes: number };
  /** relative paths (from the folder holding the report or decode.json) of the .npy files */
  files: { acausal: string; causal: string; stateProbabilities: string; mapPosition: string };
  /**
   * Where the data carry the true position: how far the posterior's MAP and the likelihood's argmax
   * lie from it (a posterior should decode better than the likelihood alone).
   */
  accuracy?: { likelihood?: DecodingAccuracy | undefined; posterior?: DecodingAccuracy | undefined };
  /**
   * A profiling run (`run --model`) times the filter and smoother once per method on the same
   * likelihood, in the order they ran; the fields above are those of the structured one.
   * (`strategies` in reports written before.)
   */
  methods?: PosteriorMethodTiming[];
}

/** One method's pass over the run's likelihood. */
export interface PosteriorMethodTiming {
  method: PosteriorMethod;
  filterMs: number;
  smoothMs: number;
  /** largest |Δ| of its acausal posterior against the first method's (0 for the first itself; NaN where only one is NaN) */
  maxAbsDiffToFirst: number;
}

/** One method's times against another's (a ratio < 1: `method` is the faster). */
export interface PosteriorMethodRatio {
  method: PosteriorMethod;
  against: PosteriorMethod;
  filter: number;
  smooth: number;
  /** filter and smoother together */
  total: number;
}

/**
 * Structured's filter and smoother times ÷ dense's when a run timed both, for report.md and the
 * CLI summary alike; undefined otherwise.
 */
export function structuredToDense(p: Pick<PosteriorReport, 'methods'>): PosteriorMethodRatio | undefined {
  const of = (m: PosteriorMethod) => p.methods?.find((t) => t.method === m);
  const structured = of('structured');
  const dense = of('dense');
  if (!structured || !dense) return undefined;
  return {
    method: 'structured',
    against: 'dense',
    filter: structured.filterMs / dense.filterMs,
    smooth: structured.smoothMs / dense.smoothMs,
    total: (structured.filterMs + structured.smoothMs) / (dense.filterMs + dense.smoothMs),
  };
}

/** A decode from the likelihood to the posterior: each part's time, their sum and its ratio to the likelihood alone. */
export interface WholeDecodeTime {
  likelihoodMs: number;
  /** the detector's Local state; 0 for the decoder */
  localMs: number;
  /** filter and smoother */
  posteriorMs: number;
  wholeMs: number;
  ratio: number;
}

export function wholeDecodeTime(likelihoodMs: number, p: Pick<PosteriorReport, 'filterMs' | 'smoothMs' | 'localMs'>): WholeDecodeTime {
  const localMs = p.localMs ?? 0;
  const posteriorMs = p.filterMs + p.smoothMs;
  const wholeMs = likelihoodMs + localMs + posteriorMs;
  return { likelihoodMs, localMs, posteriorMs, wholeMs, ratio: wholeMs / likelihoodMs };
}
