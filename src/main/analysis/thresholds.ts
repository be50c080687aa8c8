/**
 * Every threshold the findings and the recommendation judge by, in one place, with its reason.
 */

/** A first call this many times the warm median is a cold start worth naming. */
export const COLD_START_RATIO = 3;
/** Backend init plus first-call overhead at or above this share of a run's measured time dominates it. */
export const COLD_START_SHARE = 0.5;
/** Strategies closer than this in warm time are within noise and run-to-run variation. */
export const SLOWER_RATIO = 1.5;
/** spec §9.1: `kde_reference.py` warns above half of the spike terms on the LOG_EPS floor. */
export const FLOOR_SHARE_WARN = 0.5;
/** Share of time rows that must decode the same position for two strategies to be interchangeable. */
export const ARGMAX_AGREEMENT_MIN = 0.99;
/** Other processes holding more than this share of all cores' time disturb the timings. */
export const BUSY_OTHER_CPU_SHARE = 0.25;
/** A median whose 95 % interval is wider than this share either side is too noisy to rank finely. */
export const IMPRECISE_HALF_WIDTH = 0.05;
