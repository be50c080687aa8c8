/**
 * Where the engine process leaves likelihoods in a run's folder, for the service to read back:
 * float32 .npy (n_time, n_bins) in C order, plus axes.json with what a heatmap needs to label them.
 */

export const LIKELIHOOD_DIR = 'likelihood';
export const AXES_FILE = 'axes.json';

export interface LikelihoodAxes {
  time: number[];
  /** first position dimension of each bin centre */
  binCenters: number[];
  truePosition?: number[];
}

/** relative path of a strategy's (or 'local') likelihood inside the run folder */
export function likelihoodRelPath(name: string): string {
  return `${LIKELIHOOD_DIR}/${name}.npy`;
}
