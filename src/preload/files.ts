/**
 * `window.profilerFiles`: the path on disk of a file dropped on the page. Electron ≥ 32 no longer
 * puts a `.path` on File objects; only the preload can ask (webUtils.getPathForFile). Kept apart
 * from `window.profiler` because it answers synchronously and is no service call.
 */
import type { DesktopFiles } from '../shared/api';

export interface WebUtilsLike {
  getPathForFile(file: File): string;
}

export function createDesktopFiles(webUtils: WebUtilsLike): DesktopFiles {
  return {
    pathForFile(file: File): string {
      try {
        const path = webUtils.getPathForFile(file);
        return typeof path === 'string' ? path : '';
      } catch {
        // not a File Electron knows (a plain object from the page): it has no path on disk
        return '';
      }
    },
  };
}
