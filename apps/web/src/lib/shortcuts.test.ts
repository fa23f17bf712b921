import { afterEach, describe, expect, it } from 'vitest';
import { isNewChatShortcut, isStopShortcut, shortcuts } from './shortcuts';

const key = (init: KeyboardEventInit) => new KeyboardEvent('keydown', init);

afterEach(() => {
  document.body.innerHTML = '';
});

describe('keyboard shortcuts', () => {
  it('starts a new chat on Ctrl+Shift+O or ⌘⇧O, and not on Ctrl+O or Shift+O alone', () => {
    expect(isNewChatShortcut(key({ key: 'O', ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(isNewChatShortcut(key({ key: 'o', metaKey: true, shiftKey: true }))).toBe(true);
    expect(isNewChatShortcut(key({ key: 'o', ctrlKey: true }))).toBe(false);
    expect(isNewChatShortcut(key({ key: 'O', shiftKey: true }))).toBe(false);
    expect(isNewChatShortcut(key({ key: 'o', ctrlKey: true, shiftKey: true, altKey: true }))).toBe(
      false,
    );
  });

  it('stops on Escape unless a dialog or a menu is open, which takes the Escape itself', () => {
    expect(isStopShortcut(key({ key: 'Escape' }))).toBe(true);
    expect(isStopShortcut(key({ key: 'Enter' }))).toBe(false);
    const menu = document.createElement('div');
    menu.setAttribute('role', 'menu');
    document.body.append(menu);
    expect(isStopShortcut(key({ key: 'Escape' }))).toBe(false);
    menu.remove();
    const dialog = document.createElement('dialog');
    dialog.setAttribute('open', '');
    document.body.append(dialog);
    expect(isStopShortcut(key({ key: 'Escape' }))).toBe(false);
  });

  it('lists every shortcut once, each with keys and an action', () => {
    expect(new Set(shortcuts.map((s) => s.id)).size).toBe(shortcuts.length);
    for (const shortcut of shortcuts) {
      expect(shortcut.keys()).not.toBe('');
      expect(shortcut.action).toMatch(/^[A-Z]/);
    }
  });
});
