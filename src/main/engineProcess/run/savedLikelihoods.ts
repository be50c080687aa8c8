/**
 * What a profiling run that saves its likelihoods (`--save-likelihood`) writes into its run folder,
 * sized before the work so that a disk too small refuses the run at once instead of after every
 * strategy was measured: a likelihood per strategy and per engine that computes one, the local
 * likelihood when asked, and the axes beside them.
 */
import type { RunConfig } from '../../../shared/config';
import { engineModelOf } from '../../../shared/externalEngines';
import { formatBytes } from '../../../shared/format';
import { npyBytes, type OutputSize } from '../runFiles';

/** axes.json holds a time and a true position per row and a centre per bin as JSON numbers: at most this many characters each */
const AXES_BYTES_PER_NUMBER = 25;

/** The likelihood files of a run of `rows` time rows × `bins` position bins; undefined when it saves none. */
export function savedLikelihoodSize(config: RunConfig, rows: number, bins: number): OutputSize | undefined {
  if (!config.saveLikelihood) return undefined;
  // an engine that decodes the posterior whole (nld:decoder) leaves no likelihood of its own
  const engines = (config.engines ?? []).filter((e) => engineModelOf(e) === undefined).length;
  const files = config.strategies.length + engines;
  const each = npyBytes(rows, bins);
  const local = config.local ? npyBytes(rows, 1) : 0;
  const axes = (2 * rows + bins) * AXES_BYTES_PER_NUMBER;
  const parts = [`${files} likelihood${files === 1 ? '' : 's'} of ${formatBytes(each)} each`];
  if (local > 0) parts.push(`local ${formatBytes(local)}`);
  parts.push(`axes ${formatBytes(axes)}`);
  return { bytes: files * each + local + axes, parts: parts.join(', ') };
}
