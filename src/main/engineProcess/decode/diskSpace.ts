/**
 * What a decode writes into its run folder, sized before the work (runFiles/diskSpace.ts checks it
 * against the disk): its likelihood, and with a posterior the causal and acausal posteriors over
 * every state bin, the state probabilities and the MAP position.
 */
import { formatBytes } from '../../../shared/format';
import type { StateSpace } from '../../engine/posterior';
import { npyBytes, type OutputSize } from '../runFiles';

/** The decode's files: its likelihood (rows × bins) and, with a posterior, the posterior's four. */
export function decodeOutputSize(rows: number, likelihoodCols: number, posterior?: { space: StateSpace; positionDims: number }): OutputSize {
  const likelihood = npyBytes(rows, likelihoodCols);
  if (!posterior) return { bytes: likelihood, parts: `likelihood ${formatBytes(likelihood)}` };
  const { space, positionDims } = posterior;
  const post = 2 * npyBytes(rows, space.nStateBins) + npyBytes(rows, space.stateNames.length) + npyBytes(rows, positionDims);
  return { bytes: likelihood + post, parts: `likelihood ${formatBytes(likelihood)}, posterior ${formatBytes(post)}` };
}
