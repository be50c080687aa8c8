/**
 * Small pure helpers of the renderer: formatting, error text, time windows, throttling, theme
 * choice, live counters. No Vue, no stores, no node or electron; DOM only in downloadBlob.
 */
export * from './download';
export * from './errorText';
export * from './eta';
export * from './format';
export * from './liveCounters';
export * from './theme';
export * from './timeWindow';
export * from './timing';
