/**
 * Time left in a run, for the progress bar.
 */

/** ETA from the service when it gave one; otherwise none until the run is 5 % along */
export function etaMsOf(progress: { fraction: number; elapsedMs: number; etaMs?: number } | null): number | undefined {
  if (!progress) return undefined;
  if (progress.etaMs !== undefined) return progress.etaMs;
  if (progress.fraction < 0.05 || progress.fraction >= 1) return undefined;
  return (progress.elapsedMs * (1 - progress.fraction)) / progress.fraction;
}
