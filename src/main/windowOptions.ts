/**
 * The main window's options and the navigation rules, as plain data and pure functions so a unit
 * test can check them without Electron. The renderer is untrusted: sandboxed, isolated, no Node.
 */
import { PRESETS } from '../shared/config';

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export const DEFAULT_BOUNDS: WindowBounds = { width: 1400, height: 900 };
export const MIN_WIDTH = 800;
export const MIN_HEIGHT = 560;

export interface SecureWebPreferences {
  preload: string;
  sandbox: true;
  contextIsolation: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  experimentalFeatures: false;
  navigateOnDragDrop: false;
  spellcheck: false;
}

export function secureWebPreferences(preloadPath: string): SecureWebPreferences {
  return {
    preload: preloadPath,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    // a file dropped on the window goes to the page's drop handler, never replaces the page
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

export function mainWindowOptions(preloadPath: string, bounds: WindowBounds) {
  return {
    ...bounds,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    show: false,
    title: 'KDE Profiler',
    backgroundColor: '#1e1e1e',
    autoHideMenuBar: false,
    webPreferences: secureWebPreferences(preloadPath),
  };
}

/** Links the app may hand to the system browser; everything else is dropped. */
const EXTERNAL_HOSTS = new Set(['ui.perfetto.dev', 'www.speedscope.app', 'github.com', 'developer.chrome.com']);

export function isAllowedExternalUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.username === '' && url.password === '' && EXTERNAL_HOSTS.has(url.hostname);
}

/** The window may only ever show the app's own page: a reload is fine, anything else is not. */
export function isSameDocument(current: string, target: string): boolean {
  try {
    const a = new URL(current);
    const b = new URL(target);
    return a.protocol === b.protocol && a.host === b.host && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

/** Saved bounds are untrusted input too: keep them only if they are sane numbers. */
export function parseSavedBounds(raw: unknown): WindowBounds {
  if (typeof raw !== 'object' || raw === null) return { ...DEFAULT_BOUNDS };
  const r = raw as Record<string, unknown>;
  const num = (v: unknown, min: number, max: number) => (typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? Math.round(v) : undefined);
  const width = num(r.width, MIN_WIDTH, 20_000);
  const height = num(r.height, MIN_HEIGHT, 20_000);
  if (width === undefined || height === undefined) return { ...DEFAULT_BOUNDS };
  const x = num(r.x, -20_000, 20_000);
  const y = num(r.y, -20_000, 20_000);
  return x !== undefined && y !== undefined ? { x, y, width, height } : { width, height };
}

export type ThemeChoice = 'system' | 'light' | 'dark';

export interface AppSettings {
  bounds: WindowBounds;
  theme: ThemeChoice;
}

export function parseSettings(raw: unknown): AppSettings {
  const r = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const theme = r.theme === 'light' || r.theme === 'dark' ? r.theme : 'system';
  return { bounds: parseSavedBounds(r.bounds), theme };
}

interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Drops a saved position that no display shows any more (a monitor was unplugged). */
export function placeOnScreen(bounds: WindowBounds, workAreas: readonly Area[]): WindowBounds {
  if (bounds.x === undefined || bounds.y === undefined) return bounds;
  const { x, y } = bounds;
  // the title bar's first 100 px must be on some display, or the window cannot be grabbed
  const visible = workAreas.some((a) => x + 100 > a.x && x < a.x + a.width && y >= a.y && y < a.y + a.height - 40);
  return visible ? bounds : { width: bounds.width, height: bounds.height };
}

/** The preset named by `--example NAME` or `--example=NAME` on the command line, if it is one. */
export function exampleArg(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = a === '--example' ? argv[i + 1] : a.startsWith('--example=') ? a.slice('--example='.length) : undefined;
    if (value !== undefined) return (PRESETS as readonly string[]).includes(value) ? value : null;
  }
  return null;
}
