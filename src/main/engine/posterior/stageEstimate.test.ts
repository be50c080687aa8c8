import { describe, expect, it } from 'vitest';
import { POSTERIOR_METHODS } from '../../../shared/config';
import { posteriorMemoryEstimate } from './posteriorWork';
import { posteriorStageEstimate, posteriorStageEstimateOfSummary } from './stageEstimate';
import { buildStateSpace } from './stateSpace';
import { fitPositions, gridOf, modelOf, type ReferenceCase } from './testing';

const ROWS = 30_000;

/** What the dataset's summary says of the grid these positions build. */
async function summaryOf(name: ReferenceCase) {
  const grid = await gridOf(name);
  const finite = Array.from(await fitPositions(name)).filter(Number.isFinite);
  return {
    grid,
    summary: {
      positionDims: 1,
      positionRange: [Math.min(...finite), Math.max(...finite)] as [number, number],
      nBins: grid.interior.reduce((n, v) => n + v, 0),
      nPlaceGridBins: grid.centers.length,
      nTime: ROWS,
    },
  };
}

describe('the posterior stage estimate before a run', () => {
  it.each<ReferenceCase>(['decoder', 'detector', 'detector_gaps'])('%s: on its own grid it is the formula the decode reports', async (name) => {
    const { grid } = await summaryOf(name);
    for (const method of POSTERIOR_METHODS) {
      const ask = { model: modelOf(name), method, rowsPerWindow: 2000 };
      expect(posteriorStageEstimate(ask, grid, ROWS)).toEqual(posteriorMemoryEstimate(buildStateSpace(ask.model, grid), method, 2000, ROWS));
    }
  });

  it.each<ReferenceCase>(['decoder', 'detector', 'detector_gaps'])('%s: from the summary, the same counts; only the band is sized on even steps', async (name) => {
    const { grid, summary } = await summaryOf(name);
    const dense = { model: modelOf(name), method: 'dense' as const, rowsPerWindow: 2000 };
    expect(posteriorStageEstimateOfSummary(dense, summary)!.bytes).toBe(posteriorStageEstimate(dense, grid, ROWS).bytes);
    const structured = { ...dense, method: 'structured' as const };
    const exact = posteriorStageEstimate(structured, grid, ROWS).bytes;
    const before = posteriorStageEstimateOfSummary(structured, summary)!.bytes;
    expect(Math.abs(before - exact)).toBeLessThan(0.01 * exact);
  });

  it('takes the window and the parameters the run asks for', async () => {
    const { summary } = await summaryOf('detector');
    const ask = { model: 'detector' as const, method: 'structured' as const, rowsPerWindow: 2000 };
    const base = posteriorStageEstimateOfSummary(ask, summary)!;
    expect(posteriorStageEstimateOfSummary({ ...ask, rowsPerWindow: 500 }, summary)!.bytes).toBeLessThan(base.bytes);
    expect(base.formula).toMatch(/windows of 2000 rows/);
    // a wider random walk keeps a wider band
    expect(posteriorStageEstimateOfSummary({ ...ask, parameters: { movementVar: 60 } }, summary)!.bytes).toBeGreaterThan(base.bytes);
  });

  it('has none where the posterior cannot run: 2-D positions, no bin on the track', async () => {
    const { summary } = await summaryOf('decoder');
    const ask = { model: 'decoder' as const, method: 'dense' as const, rowsPerWindow: 2000 };
    expect(posteriorStageEstimateOfSummary(ask, { ...summary, positionDims: 2 })).toBeUndefined();
    expect(posteriorStageEstimateOfSummary(ask, { ...summary, nBins: 0 })).toBeUndefined();
  });
});
