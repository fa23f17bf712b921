import { ApiError, apiErrorFromResponse } from './api-error';
import { takeEarlyAnswer } from './early-data';
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

type GuardedCall = { method: string; path: string; provider: string | undefined };

/** Said when the request never reached the server (offline, DNS, connection reset). */
const networkErrorMessage =
  'Could not reach the Chorus server. Check your connection and try again.';

/**
 * One request through the browser's rate limiter and the provider throttle, recorded in
 * diagnostics. Answers the response when it is 2xx; otherwise throws an ApiError, and a 429
 * starts the global block.
 */
export const guardedFetch = async (call: GuardedCall, init: RequestInit): Promise<Response> => {
  await beforeCall(call);
  const startedAt = Date.now();
  let response: Response;
  try {
    response = await fetch(call.path, { ...init, method: call.method, credentials: 'include' });
  } catch (cause) {
    if (init.signal?.aborted) throw cause;
    const error = new ApiError(0, networkErrorMessage);
    onCallFailed(call, error);
    throw error;
  }
  afterCall(call, response.status, startedAt);
  if (!response.ok) {
    const error = await apiErrorFromResponse(response);
    onCallFailed(call, error);
    throw error;
  }
  if (call.method !== 'GET') onWriteSucceeded();
  return response;
};

const send = async <T>(path: string, options: RequestOptions): Promise<T> => {
  const { method = 'GET', body, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await guardedFetch(
    { method, path, provider: providerOf(path, body) },
    {
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    },
  );
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
};

/**
 * A POST whose answer is read as a stream (the chat), guarded like every other call. `init`
 * carries a JSON string body, as the AI SDK's transport sends it.
 */
export const apiStream = (path: string, init: RequestInit = {}): Promise<Response> => {
  let body: unknown;
  try {
    body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
  } catch {
    body = undefined;
  }
  return guardedFetch({ method: 'POST', path, provider: providerOf(path, body) }, init);
};

/**
 * Calls the same-origin backend with the session cookie and JSON, and throws an ApiError
 * (status + the body's `error` message) on any non-2xx answer. Every call passes the
 * browser's rate limiter first; identical reads in flight share one request.
 */
export const apiFetch = <T>(path: string, options: RequestOptions = {}): Promise<T> => {
  if ((options.method ?? 'GET') !== 'GET') return send<T>(path, options);
  const { signal, ...shared } = options;
  const read = () => requests.run(`GET ${path}`, 0, () => send<T>(path, shared), signal);
  const early = takeEarlyAnswer(path);
  return early ? early.then((answer) => (answer === null ? read() : (answer as T))) : read();
};

/**
 * A GET whose answer is a file (an export), guarded like every other call; the caller reads the
 * body and its headers. Throws an ApiError with the server's message on a non-2xx answer.
 */
export const apiDownload = (path: string, signal?: AbortSignal): Promise<Response> =>
  guardedFetch(
    { method: 'GET', path, provider: undefined },
    { headers: { Accept: '*/*' }, signal: signal ?? null },
  );

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => apiFetch<T>(path, { signal }),
  post: <T>(path: string, body?: unknown) => apiFetch<T>(path, { method: 'POST', body }),
  patch: <T>(path: string, body: unknown) => apiFetch<T>(path, { method: 'PATCH', body }),
  put: <T>(path: string, body: unknown) => apiFetch<T>(path, { method: 'PUT', body }),
  delete: <T>(path: string) => apiFetch<T>(path, { method: 'DELETE' }),
};
