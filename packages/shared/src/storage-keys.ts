/** Browser local-storage keys of spec §3. Never a raw provider key or a session token. */
export const storageKeys = {
  theme: 'theme',
  defaultProvider: 'default_ai_provider',
  diag: 'diag',
  session: 'chorus.session',
} as const;

export const themes = ['light', 'dark', 'system'] as const;
export type Theme = (typeof themes)[number];
