/**
 * Pinia setup stores of the renderer: the state of each view and the api calls behind it.
 * Stores reach the service only through useApi() (installed by main.ts, faked in tests); they must
 * not import Vue components, the DOM, node or electron, so they run under vitest without a browser.
 */
export { installApi, setApiForTests, useApi } from './apiAccess';
export { useSystemStore } from './systemStore';
export { DEFAULT_PRESET, sameSource, useDataStore } from './dataStore';
export { useMappingStore } from './mappingStore';
export { backendOptions, ENGINE_CHOICES, engineFitsModel, ESTIMATE_DEBOUNCE_MS, POSTERIOR_CHOICES, STRATEGY_CHOICES, useRunSetupStore, type BackendOption } from './runSetupStore';
export { TIMELINE_REFRESH_MS, useLiveRunStore, type LivePhase, type LogLine } from './liveRunStore';
export { useResultsStore } from './resultsStore';
export { useLikelihoodStore } from './likelihoodStore';
export { usePosteriorStore } from './posteriorStore';
export { DEFAULT_PLAY_SPEED, MAP_FRAME_MS, PLAY_SPEEDS, TRAIL_SECONDS, usePosteriorMapStore, type MapTarget } from './posteriorMapStore';
export { useTimelineStore, windowAround, type AreaSelection } from './timelineStore';
export { DEFAULT_THRESHOLD_PCT, useRunsStore } from './runsStore';
export { EXPORT_CHOICES, useExportStore } from './exportStore';
export { hashOf, routeFromHash, sameRoute, useNavStore, viewFromHash, VIEWS, type Route, type RouteParams, type ViewId } from './navStore';
