import { describe, expect, it } from 'vitest';
import { applyTheme, parseTheme, resolveTheme } from './theme';

describe('theme resolution', () => {
  it('uses a stored theme only when it is light, dark or system', () => {
    expect(parseTheme('light')).toBe('light');
    expect(parseTheme('dark')).toBe('dark');
    expect(parseTheme('system')).toBe('system');
    expect(parseTheme('purple')).toBe('system');
    expect(parseTheme('')).toBe('system');
    expect(parseTheme(null)).toBe('system');
  });

  it('follows the operating system when the theme is system', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('replaces the root light/dark class instead of adding to it', () => {
    const root = document.createElement('html');
    root.classList.add('light', 'other');
    applyTheme('dark', root);
    expect([...root.classList].sort()).toEqual(['dark', 'other']);
    applyTheme('light', root);
    expect([...root.classList].sort()).toEqual(['light', 'other']);
  });
});
