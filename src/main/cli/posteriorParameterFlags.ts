/**
 * The state-space model's parameter flags, which `run` and `decode` both take: --movement-var,
 * --no-spike-rate, --discrete-transition (JSON rows) and --local-position-std, read as text and
 * checked against the model by the contract's one check (shared/posteriorParameters).
 */
import type { PosteriorModel } from '../../shared/config';
import { checkPosteriorParameters, type PosteriorParameters } from '../../shared/posteriorParameters';
import { stringFlag, type Parsed } from './args';
import { UsageError } from './cliTypes';

export const POSTERIOR_PARAMETER_OPTIONS = {
  'movement-var': { type: 'string' },
  'no-spike-rate': { type: 'string' },
  'discrete-transition': { type: 'string' },
  'local-position-std': { type: 'string' },
} as const;

const PARAMETER_FLAGS = Object.keys(POSTERIOR_PARAMETER_OPTIONS);

/** the parameter flags, absent from a flag table's values: for a parse that must not see them (decode's run config) */
export const WITHOUT_POSTERIOR_PARAMETERS = Object.fromEntries(PARAMETER_FLAGS.map((f) => [f, undefined]));

/** the first parameter flag given, as typed ("--movement-var"), for a refusal when there is no posterior */
export function givenParameterFlag(flags: Parsed): string | undefined {
  return PARAMETER_FLAGS.map((f) => `--${f}`).find((f) => stringFlag(flags, f.slice(2)) !== undefined);
}

function numberOf(flags: Parsed, flag: string): number | undefined {
  const text = stringFlag(flags, flag);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || Number.isNaN(value)) throw new UsageError(`--${flag}: expected a number, got ${JSON.stringify(text.slice(0, 40))}`);
  return value;
}

function transitionOf(flags: Parsed): unknown {
  const text = stringFlag(flags, 'discrete-transition');
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--discrete-transition: expected JSON rows such as '[[0.98,0.02],[0.02,0.98]]', got ${text.slice(0, 80)}`);
  }
}

/** The parameters the flags give, checked against the model; the ones not given stay absent. */
export function posteriorParametersFrom(flags: Parsed, model: PosteriorModel): PosteriorParameters {
  const raw = {
    movementVar: numberOf(flags, 'movement-var'), noSpikeRate: numberOf(flags, 'no-spike-rate'),
    discreteTransition: transitionOf(flags), localPositionStd: numberOf(flags, 'local-position-std'),
  };
  try {
    return checkPosteriorParameters(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)), model);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
