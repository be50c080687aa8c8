/**
 * The application menu as a template: File (open data, open run, export), Edit, View (themes,
 * zoom, devtools), Window. Built from plain data and callbacks so a test can read it without
 * Electron; main/index.ts turns it into a Menu.
 */
import type { MenuItemConstructorOptions } from 'electron';

export type ThemeSource = 'system' | 'light' | 'dark';
export const THEMES: readonly ThemeSource[] = ['system', 'light', 'dark'];

export interface MenuActions {
  openData(): void;
  openRun(): void;
  exportRun(): void;
  setTheme(theme: ThemeSource): void;
}

export function menuTemplate(actions: MenuActions, theme: ThemeSource, isMac: boolean): MenuItemConstructorOptions[] {
  const themeItems: MenuItemConstructorOptions[] = THEMES.map((t) => ({
    label: t === 'system' ? 'Follow System' : t === 'light' ? 'Light' : 'Dark',
    type: 'radio',
    checked: t === theme,
    click: () => actions.setTheme(t),
  }));
  return [
    ...(isMac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open Data…', accelerator: 'CmdOrCtrl+O', click: () => actions.openData() },
        { label: 'Open Run…', accelerator: 'CmdOrCtrl+Shift+O', click: () => actions.openRun() },
        { label: 'Export…', accelerator: 'CmdOrCtrl+E', click: () => actions.exportRun() },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { label: 'Theme', submenu: themeItems },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ];
}
