import { ApiError, apiErrorFromResponse } from './api-error';

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
    if (!response.ok) return { data: null, error: await apiErrorFromResponse(response) };
    const text = await response.text();
    return { data: (text ? JSON.parse(text) : null) as T, error: null };
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : 'Network error';
    return { data: null, error: new ApiError(0, message) };
  }
};

export const authClient = {
  getSession: (options: { signal?: AbortSignal } = {}) =>
    call<AuthSession | null>('/get-session', { method: 'GET', ...options }),
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
