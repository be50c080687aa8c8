/**
 * What a profiling run's posterior stage (`--model decoder|detector`) writes into its run folder, sized before
 * the work as its likelihoods are (savedLikelihoods.ts): the float32 likelihood it reads, where the
 * run saves none of its own, and each method's causal and acausal posteriors, state probabilities
 * and MAP position. The methods before the last write into posterior-work/, removed at the end, so
 * at the most every method's files are on the disk together.
 */
import type { RunConfig } from '../../../shared/config';
import type { Dataset } from '../../../shared/dataset';
import { formatBytes } from '../../../shared/format';
import { buildStateSpace } from '../../engine/posterior';
import { decodeOutputSize } from '../decode/diskSpace';
import { placeGridOf } from '../posterior';
import { npyBytes, type OutputSize } from '../runFiles';

/** The posterior stage's files at their most; undefined for a run without one. */
export function posteriorOutputSize(config: RunConfig, dataset: Dataset): OutputSize | undefined {
  const wanted = config.posterior;
  if (!wanted) return undefined;
  const rows = dataset.time.length;
  const bins = dataset.placeBinCenters.length / dataset.positionDims;
  const space = buildStateSpace(wanted.model, placeGridOf(dataset), undefined);
  const likelihood = npyBytes(rows, bins);
  const perMethod = decodeOutputSize(rows, bins, { space, positionDims: dataset.positionDims }).bytes - likelihood;
  const methods = wanted.methods.length;
  const read = config.saveLikelihood ? 0 : likelihood;
  const parts = [`the ${wanted.model} posterior's files ${formatBytes(perMethod)}${methods > 1 ? ` for each of ${methods} methods` : ''}`];
  if (read > 0) parts.push(`the likelihood it reads ${formatBytes(read)}`);
  return { bytes: methods * perMethod + read, parts: parts.join(', ') };
}

/** Two sizes as one, either absent. */
export function bothSizes(a: OutputSize | undefined, b: OutputSize | undefined): OutputSize | undefined {
  if (!a || !b) return a ?? b;
  return { bytes: a.bytes + b.bytes, parts: `${a.parts}, ${b.parts}` };
}
