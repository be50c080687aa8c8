/**
 * The path on disk of a file dropped on the page. In the desktop app the preload's
 * `window.profilerFiles` knows it (Electron ≥ 32 has no `File.path`); a browser never tells a
 * page where a file lives, so web mode gets null and asks for the path on the server instead.
 */
import type { DesktopFiles } from '../../../shared/api';

/** the preload's bridge, absent in web mode */
function desktopFiles(): DesktopFiles | undefined {
  const bridged = (globalThis as { profilerFiles?: Partial<DesktopFiles> }).profilerFiles;
  return typeof bridged?.pathForFile === 'function' ? (bridged as DesktopFiles) : undefined;
}

export function droppedFilePath(file: File, files: DesktopFiles | undefined = desktopFiles()): string | null {
  const fromBridge = files?.pathForFile(file);
  if (typeof fromBridge === 'string' && fromBridge.length > 0) return fromBridge;
  // Electron before 32 put the path on the File itself
  const legacy = (file as File & { path?: unknown }).path;
  return typeof legacy === 'string' && legacy.length > 0 ? legacy : null;
}
