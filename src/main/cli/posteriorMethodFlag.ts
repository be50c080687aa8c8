/**
 * `--posterior-method`, the flag run and decode name the posterior's method by (dense,
 * structured), and `--posterior-strategy`, its name before: still read, with a line on stderr that
 * it is the old name, so a script written for it keeps working and learns the new one.
 */
import { stringFlag, type Parsed } from './args';
import { UsageError } from './cliTypes';

export const POSTERIOR_METHOD_FLAG = 'posterior-method';
const OLD_NAME = 'posterior-strategy';

export const POSTERIOR_METHOD_FLAGS = {
  [POSTERIOR_METHOD_FLAG]: { type: 'string' },
  [OLD_NAME]: { type: 'string' },
} as const;

/** `--posterior-method` (or its old name), absent from a flag table's values: for a parse that must not see it */
export const WITHOUT_POSTERIOR_METHOD = { [POSTERIOR_METHOD_FLAG]: undefined, [OLD_NAME]: undefined } as const;

export interface GivenMethod {
  /** the flag as the user typed it, for messages about its value */
  flag: string;
  value: string;
}

/** The method the flags name, under either name; undefined when neither is given, UsageError for both. */
export function posteriorMethodFlag(p: Parsed): GivenMethod | undefined {
  const now = stringFlag(p, POSTERIOR_METHOD_FLAG);
  const old = stringFlag(p, OLD_NAME);
  if (now !== undefined && old !== undefined) throw new UsageError(`--${OLD_NAME} is the old name of --${POSTERIOR_METHOD_FLAG}: give --${POSTERIOR_METHOD_FLAG} alone`);
  if (now !== undefined) return { flag: `--${POSTERIOR_METHOD_FLAG}`, value: now };
  return old === undefined ? undefined : { flag: `--${OLD_NAME}`, value: old };
}

/** The line for stderr when the old name was given; undefined otherwise. */
export function oldPosteriorFlagNote(p: Parsed): string | undefined {
  if (stringFlag(p, OLD_NAME) === undefined) return undefined;
  return `note: --${OLD_NAME} is the old name of --${POSTERIOR_METHOD_FLAG} (the posterior's method, dense or structured); it still works\n`;
}
