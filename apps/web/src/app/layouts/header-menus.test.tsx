import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storageKeys } from '@chorus/shared/storage-keys';
import { ThemeProvider } from '@/app/providers/theme-provider';
import { LazyThemeMenu } from './header-menus';

const renderThemeMenu = () => {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
  return render(
    <ThemeProvider>
      <LazyThemeMenu />
    </ThemeProvider>,
  );
};

describe('the header menus', () => {
  it('draws the theme button as the menu will, dark icon included', () => {
    window.localStorage.setItem(storageKeys.theme, 'dark');
    renderThemeMenu();
    const button = screen.getByRole('button', { name: 'Toggle theme' });
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(button.querySelector('.lucide-moon')).not.toBeNull();
  });

  it('opens the theme menu on the first press, though its code loads only then', async () => {
    renderThemeMenu();
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Toggle theme' }));
    expect(await screen.findByRole('menuitemradio', { name: 'Dark' })).toBeTruthy();
  });

  it('opens the theme menu from the keyboard and keeps the focus on it', async () => {
    renderThemeMenu();
    const button = screen.getByRole('button', { name: 'Toggle theme' });
    button.focus();
    fireEvent.keyDown(button, { key: 'Enter' });
    expect(await screen.findByRole('menuitemradio', { name: 'System' })).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('menu').contains(document.activeElement)).toBe(true),
    );
  });
});
