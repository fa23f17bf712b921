// The workspace's keyboard shortcuts, in one list: the handlers read their keys from here, and
// the help center lists them from here, so the two never disagree.

const isApple = () =>
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export type Shortcut = {
  id: 'new-chat' | 'search' | 'stop' | 'send' | 'new-line' | 'recall' | 'prompt';
  /** What it does, as a person would say it. */
  action: string;
  /** The keys on this device, as shown (Ctrl becomes ⌘ on Apple keyboards). */
  keys: () => string;
};

const mod = () => (isApple() ? '⌘' : 'Ctrl');

export const shortcuts: Shortcut[] = [
  { id: 'new-chat', action: 'Start a new chat', keys: () => `${mod()} Shift O` },
  { id: 'search', action: 'Search your messages', keys: () => `${mod()} K` },
  { id: 'stop', action: 'Stop the reply being written', keys: () => 'Esc' },
  { id: 'send', action: 'Send the message', keys: () => 'Enter' },
  { id: 'new-line', action: 'New line in the message', keys: () => 'Shift Enter' },
  {
    id: 'recall',
    action: 'Bring back a message you sent (in an empty message box)',
    keys: () => '↑ / ↓',
  },
  {
    id: 'prompt',
    action: 'Insert a saved prompt (at the start of the message box)',
    keys: () => '/',
  },
];

/** Ctrl+Shift+O (⌘⇧O on Apple keyboards): a new chat, as in ChatGPT. */
export const isNewChatShortcut = (event: KeyboardEvent) =>
  (event.ctrlKey || event.metaKey) &&
  event.shiftKey &&
  !event.altKey &&
  event.key.toLowerCase() === 'o';

/** Escape with no dialog or menu open: it stops a reply. A dialog takes its own Escape. */
export const isStopShortcut = (event: KeyboardEvent) =>
  event.key === 'Escape' &&
  !event.defaultPrevented &&
  !document.querySelector('dialog[open], [role="menu"]');
