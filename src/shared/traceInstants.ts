/**
 * What an instant in a trace says about the run: most are notes the engine leaves on how it ran
 * (which path a strategy took, whether a kernel was kept within the memory budget, a shard's
 * clocks) and recur on every electrode; a few say something went wrong. The timeline draws notes
 * quietly and keeps red for warnings, so a lane of routine notes does not read as a lane of errors.
 */

export type InstantSeverity = 'routine' | 'warning';

/** the names of the notes the engine records as it runs: it records them under these, the timeline reads them by these */
export const INSTANT = {
  subnormalFlush: 'subnormal flush',
  seriesCoverage: 'series coverage',
  positionKernelNotKept: 'position-kernel not kept',
  positionKernelRecomputed: 'position-kernel recomputed',
  shardWallClock: 'shard wall clock',
  shardCpuTime: 'shard cpu time',
  autoProbe: 'auto probe',
} as const;

/** what each of the engine's notes tells, for the timeline's tip: the name alone is terse */
const INSTANT_MEANINGS: Readonly<Record<string, string>> = {
  [INSTANT.subnormalFlush]: 'whether compensated flushed weights below float32\'s normal range on this electrode, and the largest bias',
  [INSTANT.seriesCoverage]: 'how many decoding spikes the series expansion covered, and what ran the rest',
  [INSTANT.positionKernelNotKept]: 'this electrode\'s position kernel did not fit the memory budget, so it is computed again where needed',
  [INSTANT.positionKernelRecomputed]: 'a position kernel past the memory budget was built for this call and freed after it',
  [INSTANT.shardWallClock]: 'the wall clock at this moment, for aligning the shards of a merged run',
  [INSTANT.shardCpuTime]: 'the engine process\'s CPU time at the end of this shard',
  [INSTANT.autoProbe]: 'the strategies auto timed on a slice of this data before it committed, and the one it follows',
};

/** the notes the engine records as it runs; none of them is a problem by itself */
export const ROUTINE_INSTANTS: ReadonlySet<string> = new Set(Object.values(INSTANT));

/** words that make an instant a warning whoever recorded it (an external engine's, a future one's) */
const WARNING_WORDS = /\b(?:error|errors|fail(?:s|ed|ure)?|warn(?:s|ing)?|oom|out of memory|crash(?:ed)?|abort(?:ed)?|lost|dropped|timeout|timed out|overflow|nan)\b/i;

/** the args by which a recorder may say outright how serious an instant is */
const SEVERITY_ARGS = ['severity', 'level'] as const;

/**
 * How serious an instant is: a severity or level arg of "warning" or "error" (or "warn") makes it a
 * warning, and so do words such as "failed" or "out of memory" in its name; the engine's own notes
 * and anything else are routine.
 */
export function instantSeverity(name: string, args?: Record<string, unknown>): InstantSeverity {
  for (const key of SEVERITY_ARGS) {
    const said = args?.[key];
    if (typeof said === 'string') return /^(?:warn|warning|error|fatal)$/i.test(said) ? 'warning' : 'routine';
  }
  if (ROUTINE_INSTANTS.has(name)) return 'routine';
  return WARNING_WORDS.test(name) ? 'warning' : 'routine';
}

/**
 * What the timeline's tip says of an instant under its name: whether it is a routine note or a
 * warning (as it is drawn), and what the engine's own notes tell.
 */
export function instantTipText(name: string, args?: Record<string, unknown>): string {
  const meaning = INSTANT_MEANINGS[name];
  if (instantSeverity(name, args) === 'warning') return meaning ? `warning: ${meaning}` : 'warning: something went wrong here';
  return meaning ? `routine note: ${meaning}` : 'routine note: how the run went, not a problem by itself';
}
