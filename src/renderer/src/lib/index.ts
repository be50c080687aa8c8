/**
 * Small pure helpers of the renderer: formatting, error text, time windows, throttling, theme
 * choice, live counters, dropped files. No Vue, no stores, no node or electron; DOM only in
 * downloadBlob and the preload bridge droppedFilePath asks.
 */
export * from './download';
export * from './droppedFile';
export * from './errorText';
export * from './eta';
export * from './format';
export * from './liveCounters';
export * from './previewWindow';
export * from './theme';
export * from './timeWindow';
export * from './timing';
