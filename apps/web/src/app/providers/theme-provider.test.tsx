import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storageKeys } from '@chorus/shared/storage-keys';
import { useTheme } from './theme-context';
import { ThemeProvider } from './theme-provider';

type Listener = () => void;

/** A controllable prefers-color-scheme media query. */
const mockSystemScheme = (initiallyDark: boolean) => {
  let dark = initiallyDark;
  const listeners = new Set<Listener>();
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return dark;
    },
    media: query,
    addEventListener: (_type: string, listener: Listener) => listeners.add(listener),
    removeEventListener: (_type: string, listener: Listener) => listeners.delete(listener),
  }));
  return {
    setDark(next: boolean) {
      dark = next;
      listeners.forEach((listener) => listener());
    },
  };
};

const ThemeSwitcher = () => {
  const { theme, setTheme } = useTheme();
  return (
    <div>
      <p>theme: {theme}</p>
      <button onClick={() => setTheme('dark')}>Dark</button>
      <button onClick={() => setTheme('light')}>Light</button>
      <button onClick={() => setTheme('system')}>System</button>
    </div>
  );
};

const rootClasses = () => [...document.documentElement.classList].sort();

describe('ThemeProvider', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('applies the stored theme to the root element at start', () => {
    mockSystemScheme(false);
    window.localStorage.setItem(storageKeys.theme, 'dark');
    render(
      <ThemeProvider>
        <ThemeSwitcher />
      </ThemeProvider>,
    );
    expect(screen.getByText('theme: dark')).toBeTruthy();
    expect(rootClasses()).toEqual(['dark']);
  });

  it('falls back to system when the stored value is not a theme', () => {
    mockSystemScheme(true);
    window.localStorage.setItem(storageKeys.theme, 'sepia');
    render(
      <ThemeProvider>
        <ThemeSwitcher />
      </ThemeProvider>,
    );
    expect(screen.getByText('theme: system')).toBeTruthy();
    expect(rootClasses()).toEqual(['dark']);
  });

  it('replaces the root class and saves the choice when the theme changes', () => {
    mockSystemScheme(false);
    render(
      <ThemeProvider>
        <ThemeSwitcher />
      </ThemeProvider>,
    );
    expect(rootClasses()).toEqual(['light']);
    fireEvent.click(screen.getByRole('button', { name: 'Dark' }));
    expect(rootClasses()).toEqual(['dark']);
    expect(window.localStorage.getItem(storageKeys.theme)).toBe('dark');
    fireEvent.click(screen.getByRole('button', { name: 'Light' }));
    expect(rootClasses()).toEqual(['light']);
    expect(window.localStorage.getItem(storageKeys.theme)).toBe('light');
  });

  it('follows the operating system while the theme is system', () => {
    const system = mockSystemScheme(false);
    render(
      <ThemeProvider>
        <ThemeSwitcher />
      </ThemeProvider>,
    );
    expect(rootClasses()).toEqual(['light']);
    act(() => system.setDark(true));
    expect(rootClasses()).toEqual(['dark']);
    fireEvent.click(screen.getByRole('button', { name: 'Light' }));
    act(() => system.setDark(false));
    act(() => system.setDark(true));
    expect(rootClasses()).toEqual(['light']);
  });
});
