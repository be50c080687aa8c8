import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { menuTemplate } from './appMenu';
import { rendererCspHeader, rendererCspMeta } from '../shared/csp';
import {
  DEFAULT_BOUNDS, exampleArg, isAllowedExternalUrl, isSameDocument, mainWindowOptions, parseSettings, placeOnScreen,
} from './windowOptions';

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k!, v]));
}

describe('main window security', () => {
  const options = mainWindowOptions('/app/out/preload/index.cjs', DEFAULT_BOUNDS);

  it('runs the renderer sandboxed and isolated, without Node', () => {
    const w = options.webPreferences;
    expect(w.sandbox).toBe(true);
    expect(w.contextIsolation).toBe(true);
    expect(w.nodeIntegration).toBe(false);
    expect(w.nodeIntegrationInWorker).toBe(false);
    expect(w.nodeIntegrationInSubFrames).toBe(false);
    expect(w.webSecurity).toBe(true);
    expect(w.allowRunningInsecureContent).toBe(false);
    expect(w.webviewTag).toBe(false);
    expect(w.preload).toMatch(/\.cjs$/);
    expect(Object.keys(w)).not.toContain('enableRemoteModule');
  });

  it('has a CSP with default-src self, no eval, no inline script, no plugins, no framing', () => {
    for (const csp of [rendererCspMeta(), rendererCspHeader()]) {
      const d = directives(csp);
      expect(d.get('default-src')).toEqual(["'self'"]);
      expect(d.get('script-src')).toEqual(["'self'"]);
      expect(d.get('object-src')).toEqual(["'none'"]);
      expect(d.get('base-uri')).toEqual(["'none'"]);
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).not.toMatch(/\*/);
    }
    expect(directives(rendererCspHeader()).get('frame-ancestors')).toEqual(["'none'"]);
    // a meta policy may not carry frame-ancestors: the browser would warn on every load
    expect(directives(rendererCspMeta()).has('frame-ancestors')).toBe(false);
  });

  it('index.html carries exactly the meta policy', () => {
    const html = readFileSync(new URL('../renderer/index.html', import.meta.url), 'utf8');
    const m = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
    expect(m?.[1]).toBe(rendererCspMeta());
  });

  it('lets only https links to known hosts out to the system browser', () => {
    expect(isAllowedExternalUrl('https://ui.perfetto.dev/')).toBe(true);
    expect(isAllowedExternalUrl('http://ui.perfetto.dev/')).toBe(false);
    expect(isAllowedExternalUrl('https://ui.perfetto.dev.evil.example/')).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@ui.perfetto.dev/')).toBe(false);
    expect(isAllowedExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)')).toBe(false);
    expect(isAllowedExternalUrl('not a url')).toBe(false);
  });

  it('allows a reload of the same page and no other navigation', () => {
    const page = 'file:///app/out/renderer/index.html';
    expect(isSameDocument(page, `${page}#runs`)).toBe(true);
    expect(isSameDocument(page, 'file:///etc/passwd')).toBe(false);
    expect(isSameDocument(page, 'https://example.com/')).toBe(false);
    expect(isSameDocument('http://localhost:5173/', 'http://localhost:5174/')).toBe(false);
  });
});

describe('window settings', () => {
  it('keeps sane saved bounds and theme, and falls back otherwise', () => {
    expect(parseSettings({ bounds: { x: 10, y: 20, width: 1000, height: 700 }, theme: 'dark' })).toEqual({ bounds: { x: 10, y: 20, width: 1000, height: 700 }, theme: 'dark' });
    expect(parseSettings({ bounds: { width: 10, height: 700 }, theme: 'neon' })).toEqual({ bounds: DEFAULT_BOUNDS, theme: 'system' });
    expect(parseSettings('garbage')).toEqual({ bounds: DEFAULT_BOUNDS, theme: 'system' });
    expect(parseSettings({ bounds: { x: 'a', y: 0, width: 900, height: 600 } }).bounds).toEqual({ width: 900, height: 600 });
  });

  it('drops a saved position no display shows', () => {
    const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    expect(placeOnScreen({ x: 100, y: 100, width: 900, height: 600 }, screen)).toEqual({ x: 100, y: 100, width: 900, height: 600 });
    expect(placeOnScreen({ x: 3000, y: 100, width: 900, height: 600 }, screen)).toEqual({ width: 900, height: 600 });
  });
});

describe('application menu', () => {
  it('has File (open data, open run, export) and View (themes, zoom, devtools)', () => {
    const calls: string[] = [];
    const template = menuTemplate({
      openData: () => calls.push('data'),
      openRun: () => calls.push('run'),
      exportRun: () => calls.push('export'),
      setTheme: (t) => calls.push(`theme:${t}`),
    }, 'dark', false);
    const file = template.find((m) => m.label === 'File')!.submenu as { label?: string; click?: () => void }[];
    for (const label of ['Open Data…', 'Open Run…', 'Export…']) file.find((i) => i.label === label)!.click!();
    const view = template.find((m) => m.label === 'View')!.submenu as { label?: string; role?: string; submenu?: unknown }[];
    const themes = view.find((i) => i.label === 'Theme')!.submenu as { label: string; checked: boolean; click: () => void }[];
    expect(themes.filter((t) => t.checked).map((t) => t.label)).toEqual(['Dark']);
    themes[1]!.click();
    expect(calls).toEqual(['data', 'run', 'export', 'theme:light']);
    expect(view.map((i) => i.role).filter(Boolean)).toEqual(expect.arrayContaining(['zoomIn', 'zoomOut', 'resetZoom', 'toggleDevTools']));
  });
});

describe('--example on the command line', () => {
  it('names a preset in either form and ignores anything else', () => {
    expect(exampleArg(['electron', '.', '--example', 'medium'])).toBe('medium');
    expect(exampleArg(['electron', '.', '--example=tiny'])).toBe('tiny');
    expect(exampleArg(['electron', '.', '--example', '../../etc'])).toBeNull();
    expect(exampleArg(['electron', '.'])).toBeNull();
  });
});
