/**
 * A form control's two-way binding to one field of the mapping state that never writes the prop:
 * it reads the field, and a write goes out as a choice for the mapping store to apply.
 */
import { computed, type WritableComputedRef } from 'vue';
import type { MappingChoice, MappingState } from '../mapping';

export function useMappingChoice<K extends keyof MappingChoice>(
  state: () => MappingState, choose: (choice: MappingChoice) => void, key: K,
): WritableComputedRef<MappingState[K]> {
  return computed({
    get: () => state()[key],
    set: (value) => {
      const choice: MappingChoice = {};
      choice[key] = value;
      choose(choice);
    },
  });
}
