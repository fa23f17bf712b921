/** Browser local-storage keys of spec §3. Never a raw provider key or a session token. */
export const storageKeys = {
  theme: 'theme',
  defaultProvider: 'default_ai_provider',
  diag: 'diag',
  session: 'chorus.session',
  /** '1' while the workspace sidebar is folded into a rail (a display preference). */
  sidebarCollapsed: 'chorus.sidebar-collapsed',
  /** `{prefix}{userId}.{conversationId or "new"}`: the text in a chat's composer, unsent. */
  draftPrefix: 'chorus.draft.',
  /** `{prefix}{userId}.{conversationId or "new"}`: messages whose send failed, kept to retry. */
  unsentPrefix: 'chorus.unsent.',
  /** `{prefix}{userId}`: the texts sent lately, recalled with ↑ in an empty composer. */
  sentPrefix: 'chorus.sent.',
} as const;

/** What signing out removes from this browser: a person's unsent words. */
export const privateStoragePrefixes = [
  storageKeys.draftPrefix,
  storageKeys.unsentPrefix,
  storageKeys.sentPrefix,
] as const;

export const themes = ['light', 'dark', 'system'] as const;
export type Theme = (typeof themes)[number];
