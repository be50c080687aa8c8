/**
 * Light/dark: the OS preference unless the person chose one; the choice lives in localStorage.
 * The storage is passed in so this stays testable without a browser.
 */

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'kde-profiler.theme';

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function readThemeChoice(storage: KeyValueStorage | undefined): ThemeChoice {
  try {
    const v = storage?.getItem(THEME_STORAGE_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

export function saveThemeChoice(storage: KeyValueStorage | undefined, choice: ThemeChoice): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // a storage that refuses writes (private mode, quota) only costs the remembered choice
  }
}

export function resolveTheme(choice: ThemeChoice, osPrefersDark: boolean): Theme {
  if (choice === 'system') return osPrefersDark ? 'dark' : 'light';
  return choice;
}

/** the toggle cycles system → light → dark → system */
export function nextThemeChoice(choice: ThemeChoice): ThemeChoice {
  return choice === 'system' ? 'light' : choice === 'light' ? 'dark' : 'system';
}
