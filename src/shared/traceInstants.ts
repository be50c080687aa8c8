/**
 * What an instant in a trace says about the run: most are notes the engine leaves on how it ran
 * (which path a strategy took, whether a kernel was kept within the memory budget, a shard's
 * clocks) and recur on every electrode; a few say something went wrong. The timeline draws notes
 * quietly and keeps red for warnings, so a lane of routine notes does not read as a lane of errors.
 */

export type InstantSeverity = 'routine' | 'warning';

/** the notes the engine records as it runs; none of them is a problem by itself */
export const ROUTINE_INSTANTS: ReadonlySet<string> = new Set([
  'subnormal flush',
  'series coverage',
  'position-kernel not kept',
  'position-kernel recomputed',
  'shard wall clock',
  'shard cpu time',
]);

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
