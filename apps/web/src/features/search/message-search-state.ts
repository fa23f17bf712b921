/**
 * Whether the message search dialog is open: one flag for the whole workspace, so the shortcut,
 * the sidebar's button and the dialog itself agree without a provider.
 */
let open = false;
const listeners = new Set<() => void>();

const setOpen = (next: boolean) => {
  if (open === next) return;
  open = next;
  for (const listener of listeners) listener();
};

export const messageSearchState = {
  subscribe: (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  isOpen: () => open,
};

const hitListeners = new Set<() => void>();

/**
 * Called the moment a hit is chosen, before the app navigates to it: whatever holds the search
 * (the phone's drawer) closes now, so the focus it gives back is in place before the chat moves
 * focus to the message.
 */
export const onMessageSearchHit = (listener: () => void) => {
  hitListeners.add(listener);
  return () => {
    hitListeners.delete(listener);
  };
};

export const announceMessageSearchHit = () => {
  for (const listener of hitListeners) listener();
};

export const openMessageSearch = () => setOpen(true);
export const closeMessageSearch = () => setOpen(false);
export const toggleMessageSearch = () => setOpen(!open);

/** Ctrl+K, or ⌘K on Apple keyboards. */
export const isSearchShortcut = (event: KeyboardEvent) =>
  (event.ctrlKey || event.metaKey) &&
  !event.altKey &&
  !event.shiftKey &&
  event.key.toLowerCase() === 'k';

export const searchShortcutLabel = () =>
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘K' : 'Ctrl K';
