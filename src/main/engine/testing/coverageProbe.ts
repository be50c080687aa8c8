/** A probe for engine tests that keeps the series strategy's `series coverage` markers. */
import type { EngineProbe } from '../model';

/** What a `series coverage` marker says about one electrode (strategies/series). */
export interface SeriesCoverage {
  order: number;
  features: number;
  series: number;
  direct: number;
  directBy: string;
}

/** A probe that keeps the `series coverage` markers and runs spans plainly. */
export function coverageProbe(): { probe: EngineProbe; seen: SeriesCoverage[] } {
  const seen: SeriesCoverage[] = [];
  return {
    seen,
    probe: {
      span: async (_name, fn) => fn(),
      counter: () => undefined,
      instant: (name, args) => {
        if (name === 'series coverage') seen.push(args as unknown as SeriesCoverage);
      },
      progress: () => undefined,
    },
  };
}
