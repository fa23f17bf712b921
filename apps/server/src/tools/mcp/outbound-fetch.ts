import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { OutboundError } from '../../net/outbound-errors.ts';
import { safeFetchStream, type SafeFetchStreamOptions } from '../../net/safe-fetch.ts';
import type { OutboundContext } from '../builtin/web-fetch.ts';

/** The caps on one request of an MCP transport (ARCHITECTURE §11). */
export const mcpFetchLimits = {
  /** Until an answer's headers arrive. */
  timeoutMs: 15_000,
  /** The longest silence on an open event stream; a session this quiet is ended. */
  idleTimeoutMs: 5 * 60_000,
  /** One request and its stream, however long the agent run. */
  maxDurationMs: 60 * 60_000,
  /** One answer or one event stream. */
  maxBytes: 25 * 1024 * 1024,
} as const;

// Statuses whose Response may not carry a body.
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

const headerRecord = (init: RequestInit['headers']): Record<string, string> => {
  const headers: Record<string, string> = {};
  new Headers(init).forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
};

const bodyOf = (body: RequestInit['body']): string | Uint8Array | undefined => {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  // OAuth token requests (the SDK's client auth) send a form.
  if (body instanceof URLSearchParams) return body.toString();
  throw new OutboundError('outbound:failed', 'The MCP client sent a body Chorus cannot forward.');
};

/**
 * A `fetch` for the MCP SDK's transports that goes through the outbound guard: every address
 * checked at connect time, at every redirect hop (followed here, never by the SDK), with caps on
 * time and size, and the body streamed (Server-Sent Events). The last outbound error is kept in
 * `failures` so a caller can tell a refusal from the SDK's own wording of it.
 */
export const createMcpFetch = (
  context: OutboundContext,
  failures: { last?: OutboundError } = {},
): FetchLike => {
  return async (input, init = {}) => {
    const options: SafeFetchStreamOptions = {
      method: init.method ?? 'GET',
      headers: headerRecord(init.headers),
      body: bodyOf(init.body),
      allow: context.allow,
      lookup: context.lookup,
      signal: init.signal ?? undefined,
      ...mcpFetchLimits,
    };
    let answer;
    try {
      answer = await safeFetchStream(String(input), options);
    } catch (error) {
      if (error instanceof OutboundError) failures.last = error;
      throw error;
    }
    const { status } = answer;
    if (status < 200 || status > 599 || nullBodyStatuses.has(status)) {
      await answer.body.cancel();
      if (status < 200 || status > 599) {
        throw new OutboundError(
          'outbound:failed',
          `The server answered with HTTP status ${status}, which Chorus does not read.`,
        );
      }
    }
    const response = new Response(nullBodyStatuses.has(status) ? null : answer.body, {
      status,
      headers: answer.headers,
    });
    // The SDK reads the answering URL to word a redirect it did not follow.
    Object.defineProperty(response, 'url', { value: answer.url });
    return response;
  };
};
