import { ApiError, apiErrorFromResponse } from './api-error';
import { afterCall, beforeCall, onCallFailed, onWriteSucceeded } from './resilience/runtime';

/**
 * The browser side of better-auth, mounted by the server at /auth/v1.
 *
 * A small fetch client over better-auth's REST endpoints, shaped like better-auth's own
 * `createAuthClient` (each call resolves to `{ data, error }`). better-auth is installed
 * only inside the server workspace, and this keeps the landing page's entry chunk small.
 * The session lives in an httpOnly cookie; no token is ever read or stored here.
 */

export type AuthUser = {
  id: string;
  email: string;
  name: string;
  image?: string | null;
  emailVerified?: boolean;
  createdAt?: string;
  updatedAt?: string;
};

export type AuthSession = {
  session: { id: string; userId?: string; expiresAt: string };
  user: AuthUser;
};

export type AuthResult<T> = { data: T; error: null } | { data: null; error: ApiError };

export const authBasePath = '/auth/v1';

const authBaseUrl = () => `${window.location.origin}${authBasePath}`;

const call = async <T>(
  path: string,
  init: { method: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal },
): Promise<AuthResult<T>> => {
  const guarded = { method: init.method, path: `${authBasePath}${path}` };
  try {
    await beforeCall(guarded);
  } catch (cause) {
    // The browser's own limiter refused the call (a 429 of its own).
    return { data: null, error: cause as ApiError };
  }
  const startedAt = Date.now();
  try {
    const response = await fetch(`${authBaseUrl()}${path}`, {
      method: init.method,
      credentials: 'include',
      headers:
        init.method === 'POST'
          ? { 'Content-Type': 'application/json', Accept: 'application/json' }
          : { Accept: 'application/json' },
      body: init.method === 'POST' ? JSON.stringify(init.body ?? {}) : null,
      signal: init.signal ?? null,
    });
    afterCall(guarded, response.status, startedAt);
    if (!response.ok) {
      const error = await apiErrorFromResponse(response);
      onCallFailed(guarded, error);
      return { data: null, error };
    }
    // Signing in, out or changing a password makes every remembered read stale.
    if (init.method === 'POST') onWriteSucceeded();
    const text = await response.text();
    return { data: (text ? JSON.parse(text) : null) as T, error: null };
  } catch (cause) {
    const timedOut = cause instanceof DOMException && cause.name === 'TimeoutError';
    const message = cause instanceof Error ? cause.message : 'Network error';
    const error = new ApiError(timedOut ? 408 : 0, message);
    onCallFailed(guarded, error);
    return { data: null, error };
  }
};

export const authClient = {
  getSession: (options: { signal?: AbortSignal } = {}) =>
    call<AuthSession | null>('/get-session', { method: 'GET', ...options }),
  /** A forced refresh (spec §7): same answer as get-session; 401 when signed out. */
  refreshSession: (options: { signal?: AbortSignal } = {}) =>
    call<AuthSession | null>('/refresh-session', { method: 'POST', body: {}, ...options }),
  signIn: {
    email: (body: { email: string; password: string; rememberMe?: boolean }) =>
      call<{ user: AuthUser }>('/sign-in/email', { method: 'POST', body }),
  },
  signUp: {
    email: (body: { email: string; password: string; name: string }) =>
      call<{ user: AuthUser }>('/sign-up/email', { method: 'POST', body }),
  },
  signOut: () => call<{ success: boolean }>('/sign-out', { method: 'POST', body: {} }),
  requestPasswordReset: (body: { email: string; redirectTo: string }) =>
    call<{ status: boolean }>('/request-password-reset', { method: 'POST', body }),
  resetPassword: (body: { newPassword: string; token: string }) =>
    call<{ status: boolean }>('/reset-password', { method: 'POST', body }),
  changePassword: (body: {
    currentPassword: string;
    newPassword: string;
    revokeOtherSessions?: boolean;
  }) => call<{ user: AuthUser }>('/change-password', { method: 'POST', body }),
};
