import { ApiError, apiErrorFromResponse } from './api-error';
import {
  afterCall,
  beforeCall,
  onCallFailed,
  onWriteSucceeded,
  requests,
} from './resilience/runtime';

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal | undefined;
};

/** The provider a proxied model call goes to, for the per-provider throttle (spec §4). */
const providerOf = (path: string, body: unknown): string | undefined => {
  if (!path.startsWith('/functions/v1/ai-api-proxy') && !path.startsWith('/functions/v1/chat')) {
    return undefined;
  }
  const provider = (body as { provider?: unknown } | null | undefined)?.provider;
  return typeof provider === 'string' ? provider : undefined;
};

const send = async <T>(path: string, options: RequestOptions): Promise<T> => {
  const { method = 'GET', body, signal } = options;
  const call = { method, path, provider: providerOf(path, body) };
  await beforeCall(call);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const startedAt = Date.now();
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    const error = new ApiError(0, cause instanceof Error ? cause.message : 'Network error');
    onCallFailed(call, error);
    throw error;
  }
  afterCall(call, response.status, startedAt);
  if (!response.ok) {
    const error = await apiErrorFromResponse(response);
    onCallFailed(call, error);
    throw error;
  }
  if (method !== 'GET') onWriteSucceeded();
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
};

/**
 * Calls the same-origin backend with the session cookie and JSON, and throws an ApiError
 * (status + the body's `error` message) on any non-2xx answer. Every call passes the
 * browser's rate limiter first; identical reads in flight share one request.
 */
export const apiFetch = <T>(path: string, options: RequestOptions = {}): Promise<T> => {
  if ((options.method ?? 'GET') !== 'GET') return send<T>(path, options);
  const { signal, ...shared } = options;
  return requests.run(`GET ${path}`, 0, () => send<T>(path, shared), signal);
};

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => apiFetch<T>(path, { signal }),
  post: <T>(path: string, body?: unknown) => apiFetch<T>(path, { method: 'POST', body }),
  patch: <T>(path: string, body: unknown) => apiFetch<T>(path, { method: 'PATCH', body }),
  put: <T>(path: string, body: unknown) => apiFetch<T>(path, { method: 'PUT', body }),
  delete: <T>(path: string) => apiFetch<T>(path, { method: 'DELETE' }),
};
