/**
 * The posterior model's parameters as Run setup's form holds them (a blank field leaves
 * non_local_detector's default), turned into the config's `posterior.parameters` by the same check
 * the service and the CLI apply, so a value the service would refuse blocks Start with its reason.
 */
import { ref } from 'vue';
import type { PosteriorModel } from '../../../shared/config';
import { checkPosteriorParameters, type PosteriorParameters } from '../../../shared/posteriorParameters';

export function posteriorParameterChoices() {
  return {
    /** the random walk's variance (position units²); blank: 6 */
    movementVar: ref<number | null>(null),
    /** the detector's No-Spike rate (per s); blank: 1e-10 */
    noSpikeRate: ref<number | null>(null),
    /** the detector's Local state over every bin with this std (0: the animal's bin); blank: one bin at the animal */
    localPositionStd: ref<number | null>(null),
    /** the detector's state-to-state transition as JSON rows; blank: NLD's */
    discreteTransition: ref(''),
  };
}

export type PosteriorParameterChoices = ReturnType<typeof posteriorParameterChoices>;

/** a number input's value (v-model.number gives '' for a blank or unreadable field), or absent */
function given(v: number | string | null): number | undefined {
  return typeof v === 'number' && !Number.isNaN(v) ? v : undefined;
}

/**
 * The parameters the fields give for the model, or why the service would refuse them. Only the
 * fields the model has count (the form shows the detector's only for the detector).
 */
export function posteriorParametersOf(c: PosteriorParameterChoices, model: PosteriorModel): { parameters: PosteriorParameters; error: string | null } {
  const raw: Record<string, unknown> = {};
  const movementVar = given(c.movementVar.value);
  if (movementVar !== undefined) raw.movementVar = movementVar;
  if (model === 'detector') {
    const noSpikeRate = given(c.noSpikeRate.value);
    const localPositionStd = given(c.localPositionStd.value);
    if (noSpikeRate !== undefined) raw.noSpikeRate = noSpikeRate;
    if (localPositionStd !== undefined) raw.localPositionStd = localPositionStd;
    const text = c.discreteTransition.value.trim();
    if (text) {
      try {
        raw.discreteTransition = JSON.parse(text) as unknown;
      } catch {
        return { parameters: {}, error: 'Discrete transition: not JSON; write rows of probabilities, e.g. [[0.98, 0.02, 0, 0], …], one row per state, in the detector\'s state order.' };
      }
    }
  }
  try {
    return { parameters: checkPosteriorParameters(raw, model), error: null };
  } catch (e) {
    return { parameters: {}, error: e instanceof Error ? e.message : String(e) };
  }
}
