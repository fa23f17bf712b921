import { storageKeys, themes, type Theme } from '@chorus/shared/storage-keys';
import { storage } from './storage';

export type ResolvedTheme = 'light' | 'dark';

export const darkSchemeQuery = '(prefers-color-scheme: dark)';

/** The saved theme, used only when it is light, dark or system (spec §4); otherwise system. */
export const parseTheme = (value: string | null | undefined): Theme =>
  themes.includes(value as Theme) ? (value as Theme) : 'system';

export const readStoredTheme = (): Theme => parseTheme(storage.get(storageKeys.theme));

export const saveTheme = (theme: Theme): void => storage.set(storageKeys.theme, theme);

export const resolveTheme = (theme: Theme, prefersDark: boolean): ResolvedTheme =>
  theme === 'system' ? (prefersDark ? 'dark' : 'light') : theme;

export const systemPrefersDark = (): boolean =>
  typeof window.matchMedia === 'function' && window.matchMedia(darkSchemeQuery).matches;

/** Replaces the root's light/dark class with the resolved one. */
export const applyTheme = (
  resolved: ResolvedTheme,
  root: HTMLElement = document.documentElement,
) => {
  root.classList.remove('light', 'dark');
  root.classList.add(resolved);
  root.style.colorScheme = resolved;
};
