import { adminRoutes, safeRedirectPath } from '@chorus/shared/routes';

export const defaultSignedInPath = '/chat';

/** Where to go after signing in: the safe `from` of the URL, or the chat. */
export const destinationFrom = (search: URLSearchParams): string =>
  safeRedirectPath(search.get('from')) ?? defaultSignedInPath;

export const isAdminPath = (path: string): boolean =>
  adminRoutes.some((route) => path === route || path.startsWith(`${route}/`));
