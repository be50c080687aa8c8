/**
 * Table rows for the views, computed from contract types. Pure: no Vue, no DOM, no stores.
 */
export * from './estimateRows';
export * from './resultTables';
