import { guardedFetch } from './api-client';

// Apart from api-client.ts: that module is part of every page's first paint (the sign-in page's
// too), and only pages that take files need this.

/**
 * POSTs a file, or several as multipart form data, guarded like every other call (rate limiter,
 * session cookie, diagnostics). Answers the JSON body; throws an ApiError with the server's
 * message on a non-2xx answer. A FormData body sets its own Content-Type (with its boundary).
 */
export const apiUpload = async <T>(
  path: string,
  body: FormData | Blob,
  headers: Record<string, string> = {},
): Promise<T> => {
  const response = await guardedFetch(
    { method: 'POST', path, provider: undefined },
    { headers: { Accept: 'application/json', ...headers }, body },
  );
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
};
