/**
 * The NWB mapping step as pure data: the state the form edits (started from the saved or automatic
 * recipe, or the best-ranked candidates) and the recipe it turns into. No Vue, no stores, no DOM, no
 * node or electron: tested under vitest as plain functions.
 */
export {
  allPositions, chooseColumn, choosePosition, DEFAULT_BIN_STEP_MS, initialMapping, keyOf, markSources, positionWidth, setGrouped,
  unitElectrodes, type ElectrodeRow, type MappingChoice, type MappingState, type MarkSource, type PeakSign, type SourceKind,
} from './mappingState';
export { toRecipe, type RecipeDraft } from './mappingRecipe';
export { candidateFacts, isMappableFile, timeRangeText } from './mappingText';
