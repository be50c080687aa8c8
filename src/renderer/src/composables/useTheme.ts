/**
 * The app's theme: follows prefers-color-scheme unless the person picked one with the toggle;
 * the pick is remembered in localStorage. The resolved theme is set as data-theme on <html>, where
 * the CSS variables switch, and charts read it to pick ECharts' dark theme.
 */
import { computed, readonly, ref } from 'vue';
import { nextThemeChoice, readThemeChoice, resolveTheme, saveThemeChoice, type Theme, type ThemeChoice } from '../lib/theme';

const choice = ref<ThemeChoice>('system');
const osDark = ref(false);
const theme = computed<Theme>(() => resolveTheme(choice.value, osDark.value));
let started = false;

function apply(): void {
  document.documentElement.dataset.theme = theme.value;
  document.documentElement.style.colorScheme = theme.value;
}

/** call once from App: reads the stored choice and starts following the OS */
export function startTheme(): void {
  if (started) return;
  started = true;
  choice.value = readThemeChoice(window.localStorage);
  const query = window.matchMedia?.('(prefers-color-scheme: dark)');
  osDark.value = query?.matches ?? false;
  query?.addEventListener('change', (e) => {
    osDark.value = e.matches;
    apply();
  });
  apply();
}

export function useTheme() {
  function cycle(): void {
    choice.value = nextThemeChoice(choice.value);
    saveThemeChoice(window.localStorage, choice.value);
    apply();
  }
  return { theme, choice: readonly(choice), cycle };
}
