import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import {
  closeMessageSearch,
  isSearchShortcut,
  messageSearchState,
  toggleMessageSearch,
} from '../message-search-state';
import { preloadMessageSearch } from './preload-message-search';

const MessageSearchDialog = lazy(() =>
  preloadMessageSearch().then((module) => ({ default: module.MessageSearchDialog })),
);

/**
 * Ctrl+K (⌘K) anywhere in the workspace opens the message search; the dialog's code loads the
 * first time it is opened, never with the page.
 */
export const MessageSearchLauncher = () => {
  const open = useSyncExternalStore(messageSearchState.subscribe, messageSearchState.isOpen);
  const [wanted, setWanted] = useState(open);
  if (open && !wanted) setWanted(true);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event) || event.repeat) return;
      event.preventDefault();
      toggleMessageSearch();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  // Closed on leaving the workspace (signing out), so it does not open again on the way back.
  useEffect(() => closeMessageSearch, []);

  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <MessageSearchDialog open={open} onClose={closeMessageSearch} />
    </Suspense>
  );
};
