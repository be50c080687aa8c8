/** The newest mtime (ms) of a file, or of the files under a folder; 0 when absent (newestMtime.mjs). */
export function newestMtimeMs(path: string, stopAbove?: number): number;
