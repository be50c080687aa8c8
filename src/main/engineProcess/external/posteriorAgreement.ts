/**
 * An external engine that decoded the whole model is checked against the run's own posterior of
 * that model, once the run has decoded it: the acausal posteriors compared entry by entry (columns
 * off the track are NaN in both) and row by row (the most probable state bin).
 */
import { join } from 'node:path';
import type { PosteriorReport } from '../../../shared/posteriorReport';
import { compareArrays } from '../../analysis';
import { POSTERIOR_FILES } from '../../engineProtocol';
import { RowFileReader } from '../runFiles';
import type { StrategyMeasurement } from '../measurement';

/** Sets each posterior engine's agreement with the posterior the run left in its folder. */
export async function comparePosteriorEngines(measured: readonly StrategyMeasurement[], runDir: string, report: PosteriorReport): Promise<void> {
  const engines = measured.filter((m) => m.posterior && m.result.external?.posterior?.model === report.model);
  if (engines.length === 0) return;
  // posterior/ holds the outputs of the posterior method that ran last
  const method = report.methods?.at(-1)?.method ?? report.method;
  const reader = await RowFileReader.open(join(runDir, POSTERIOR_FILES.acausal));
  try {
    const ours = Float64Array.from(await reader.read(0, reader.rows));
    for (const m of engines) {
      if (m.posterior!.length !== ours.length) continue;
      m.result.agreementWithReference = compareArrays(m.posterior!, ours, reader.rows, reader.cols, `the run's ${report.model} posterior (${method})`);
    }
  } finally {
    await reader.close();
  }
}
