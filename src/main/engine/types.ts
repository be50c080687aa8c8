/**
 * Engine-facing types: the probe the engine reports through (implemented by the recorder, so the
 * engine never imports it), and the result of a non-local predict.
 */
import type { StrategyName } from '../../shared/config';

/** How the engine reports what it does. Spans nest by call structure (await order). */
export interface EngineProbe {
  /** Runs fn as a named span. `sync` is awaited inside the span before it ends, so spans on
   *  asynchronous backends measure work, not dispatch. */
  span<T>(name: string, fn: () => Promise<T> | T, args?: Record<string, unknown>): Promise<T>;
  counter(name: string, values: Record<string, number>): void;
  instant(name: string, args?: Record<string, unknown>): void;
  /** fraction of the current unit of work (0..1) with a short label */
  progress(fraction: number, label: string): void;
  /** true when cancellation was requested: long loops check it between blocks */
  cancelled(): boolean;
}

export const NULL_PROBE: EngineProbe = {
  span: async (_name, fn) => fn(),
  counter: () => undefined,
  instant: () => undefined,
  progress: () => undefined,
  cancelled: () => false,
};

export interface NonlocalResult {
  /** (nTime × nBins) row-major, float64 accumulated on the host */
  logLikelihood: Float64Array;
  nTime: number;
  nBins: number;
  /** strategy each electrode ran */
  resolved: StrategyName[];
  /** share of spike terms on the LOG_EPS floor, per electrode (NaN when it had no spikes) */
  floorShare: number[];
  /** spike terms computed per electrode */
  nTerms: number[];
}
