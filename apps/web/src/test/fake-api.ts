import { vi } from 'vitest';

/** A JSON answer, as the API sends it. */
export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** One request the page made: its body parsed when it is JSON text, as sent otherwise. */
export type ApiCall = {
  method: string;
  path: string;
  /** The query string (`?a=1`), only when the request had one. */
  search?: string;
  body: unknown;
};

/** Answers what a test is about; `undefined` leaves the request to the routes, then to a 500. */
export type ApiHandler = (method: string, path: string, url: URL) => Response | undefined;

/** Plain answers a page needs but a test is not about: `'/path'` or `'GET /path'` → JSON body. */
export type ApiRoutes = Record<string, unknown>;

/**
 * A stand-in for the API server in place of `fetch`: the handler answers first, then the routes
 * (`'METHOD /path'` before `'/path'`), and anything else is a 500 naming the request, so a call
 * nobody expected fails the test. Returns the calls, in the order they were made.
 */
export const fakeApi = (routes: ApiRoutes = {}, handler: ApiHandler = () => undefined) => {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.origin);
      const method = init?.method ?? 'GET';
      const path = url.pathname;
      const body = init?.body;
      calls.push({
        method,
        path,
        ...(url.search ? { search: url.search } : {}),
        body: typeof body === 'string' ? JSON.parse(body) : body,
      });
      const answer = handler(method, path, url);
      if (answer) return answer;
      const key = [`${method} ${path}`, path].find((k) => Object.hasOwn(routes, k));
      if (key) return json(routes[key]);
      return json({ error: `unexpected ${method} ${path}` }, 500);
    }),
  );
  return calls;
};

/** The route that says the user has an OpenAI key of their own, for pages that pick a model. */
export const openAiKeyRoute: ApiRoutes = {
  '/rest/v1/api-keys/availability': [
    { provider: 'openai', enabled: true, source: 'user', key_hint: 'sk-…1234' },
  ],
};
