// The one way the server sends a request to a user-supplied URL (web fetch, HTTP tools, MCP,
// webhooks): ARCHITECTURE §11 "Outbound requests".
//
// How the address is checked at connect time: node:http/https with request-filtering-agent's
// agents, and our own `lookup` passed through them. Chosen over an undici Agent because undici
// is not a dependency of the server (Node's built-in fetch does not expose its Agent) and
// because the agent hooks `createConnection`, so it sees every connection the request makes:
//   - a host name is resolved inside the socket's connect, by the lookup we hand it, and every
//     address it returns is checked there (our table in address-check.ts, then the agent's own
//     range check), so a name cannot resolve to a public address for a check and to 127.0.0.1
//     for the connection (DNS rebinding);
//   - an address written as the host (no lookup happens) is checked before the request and again
//     by the agent's createConnection;
//   - a fresh agent per hop without keep-alive, so no socket opened for one host is reused for
//     another, and each redirect hop is parsed and checked like the first URL.
// Redirects are followed by hand for that reason; fetch's `redirect: 'manual'` would hide them.
import type { LookupAddress } from 'node:dns';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import {
  allowListRanges,
  classifyAddress,
  compileAllowList,
  isAllowedAddress,
  isAllowedHostName,
  literalAddress,
  parseOutboundUrl,
  type AllowList,
  type CompiledAllowList,
} from './address-check.ts';
import {
  OutboundError,
  OutboundRefusedError,
  OutboundTimeoutError,
  addressRefusal,
  connectionFailure,
  tooManyRedirects,
} from './outbound-errors.ts';

export type SafeFetchOptions = {
  /** GET unless given. */
  method?: string;
  /** Sent as given, except hop-by-hop headers; never logged nor echoed in an error. */
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** For the whole exchange: every hop and the body. Default 10 s, at most 60 s. */
  timeoutMs?: number;
  /** The body is read up to this many bytes (after decompression). Default 2 MB. */
  maxBytes?: number;
  /** Default 5, at most 10. */
  maxRedirects?: number;
  /** Private hosts the admin allowed; none by default. */
  allow?: AllowList;
  /** Resolves host names; tests pass a fixed table (lookup-table.ts). Default: dns.lookup. */
  lookup?: LookupFunction;
  /** Stops the request when the caller no longer wants it (a run cancelled). */
  signal?: AbortSignal;
};

export type SafeFetchResponse = {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The URL that answered, after redirects. */
  url: string;
  body: Uint8Array;
  /** The body was longer than `maxBytes` and was cut there. */
  truncated: boolean;
  /** Each URL redirected to, in order. */
  redirects: string[];
};

export const safeFetchLimits = {
  timeoutMs: { default: 10_000, max: 60_000 },
  maxBytes: { default: 2 * 1024 * 1024, max: 25 * 1024 * 1024 },
  maxRedirects: { default: 5, max: 10 },
} as const;

const clamp = (value: number | undefined, fallback: number, min: number, max: number) =>
  Number.isFinite(value) ? Math.min(Math.max(Math.floor(value!), min), max) : fallback;

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

// Set by Node or by us, or meaningful for one connection only: a caller's value is dropped.
const droppedRequestHeaders = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

// What a request keeps when a redirect leads to another origin: nothing that could be a secret
// (Authorization, cookies, an API key header of an HTTP tool).
const crossOriginHeaders = new Set(['accept', 'accept-language', 'user-agent', 'content-type']);

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const defaultLookup = dns.lookup as unknown as LookupFunction;

/**
 * Fetches a user-supplied URL safely: http(s) only, every address checked when the socket
 * connects, at every redirect hop, with time and size caps. Throws `OutboundRefusedError`,
 * `OutboundTimeoutError` or another `OutboundError`, each with a message a person can act on;
 * an HTTP error status is an answer, not a throw.
 */
export const safeFetch = async (
  input: string | URL,
  options: SafeFetchOptions = {},
): Promise<SafeFetchResponse> => {
  const { timeoutMs, maxBytes, maxRedirects } = safeFetchLimits;
  const limits = {
    timeoutMs: clamp(options.timeoutMs, timeoutMs.default, 1, timeoutMs.max),
    maxBytes: clamp(options.maxBytes, maxBytes.default, 0, maxBytes.max),
    maxRedirects: clamp(options.maxRedirects, maxRedirects.default, 0, maxRedirects.max),
  };
  const exchange = startExchange(input, options, limits.timeoutMs);
  try {
    const response = await exchange.send(limits.maxRedirects);
    const { body, truncated } = await readBody(response, limits.maxBytes, exchange.signal);
    return { ...exchange.answered(response), body, truncated };
  } catch (error) {
    throw exchange.failure(error);
  } finally {
    exchange.stopTimer();
    exchange.release();
  }
};

export type SafeFetchStreamOptions = Omit<SafeFetchOptions, 'timeoutMs' | 'maxBytes'> & {
  /** Until the response's headers arrive, every hop included. Default 10 s, at most 60 s. */
  timeoutMs?: number;
  /** The longest wait for the next piece of the body. Default 60 s, at most 1 hour. */
  idleTimeoutMs?: number;
  /** The whole exchange, from the request to the body's end. Default 10 min, at most 1 day. */
  maxDurationMs?: number;
  /** The body may be this long (after decompression); past it the stream fails. Default 10 MB. */
  maxBytes?: number;
};

export type SafeFetchStreamResponse = Omit<SafeFetchResponse, 'body' | 'truncated'> & {
  /**
   * The body as it arrives, decompressed. It fails with an `OutboundError` when it stalls, runs
   * past its time or grows past its size; cancelling it closes the connection.
   */
  body: ReadableStream<Uint8Array>;
};

export const safeFetchStreamLimits = {
  timeoutMs: safeFetchLimits.timeoutMs,
  idleTimeoutMs: { default: 60_000, max: 60 * 60_000 },
  maxDurationMs: { default: 10 * 60_000, max: 24 * 60 * 60_000 },
  maxBytes: { default: 10 * 1024 * 1024, max: 100 * 1024 * 1024 },
  maxRedirects: safeFetchLimits.maxRedirects,
} as const;

/**
 * `safeFetch` for a body read as it arrives (Server-Sent Events, a long answer): the same checks
 * at every hop, the same redirect handling, and caps on the wait for the headers, the silence
 * between two pieces of the body, the whole exchange and the body's size.
 */
export const safeFetchStream = async (
  input: string | URL,
  options: SafeFetchStreamOptions = {},
): Promise<SafeFetchStreamResponse> => {
  const { timeoutMs, idleTimeoutMs, maxDurationMs, maxBytes, maxRedirects } = safeFetchStreamLimits;
  const limits = {
    timeoutMs: clamp(options.timeoutMs, timeoutMs.default, 1, timeoutMs.max),
    idleTimeoutMs: clamp(options.idleTimeoutMs, idleTimeoutMs.default, 1, idleTimeoutMs.max),
    maxDurationMs: clamp(options.maxDurationMs, maxDurationMs.default, 1, maxDurationMs.max),
    maxBytes: clamp(options.maxBytes, maxBytes.default, 0, maxBytes.max),
    maxRedirects: clamp(options.maxRedirects, maxRedirects.default, 0, maxRedirects.max),
  };
  // The timer here covers the headers only; the body has caps of its own.
  const exchange = startExchange(input, options, limits.timeoutMs);
  const started = Date.now();
  let response: http.IncomingMessage;
  try {
    response = await exchange.send(limits.maxRedirects);
  } catch (error) {
    exchange.release();
    throw exchange.failure(error);
  } finally {
    exchange.stopTimer();
  }
  const body = streamBody(response, {
    maxBytes: limits.maxBytes,
    idleTimeoutMs: limits.idleTimeoutMs,
    durationLeftMs: Math.max(1, limits.maxDurationMs - (Date.now() - started)),
    signal: exchange.signal,
    fail: exchange.failure,
    done: exchange.release,
  });
  return { ...exchange.answered(response), body };
};

/**
 * What both fetches share: the checks before any request (the caller's stop, the method, the
 * URL), a timer that stops the exchange, the caller's signal joined to it, the hops with their
 * redirects, and every failure turned into an `OutboundError`.
 */
const startExchange = (input: string | URL, options: SafeFetchOptions, timeoutMs: number) => {
  options.signal?.throwIfAborted();
  const method = checkedMethod(options.method);
  const hops: HopState = { url: parseOrRefuse(String(input)), redirects: [] };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new OutboundTimeoutError(timeoutMs)), timeoutMs);
  const onCallerAbort = () => controller.abort(options.signal!.reason);
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    send: (maxRedirects: number) =>
      followHops(hops, method, options, maxRedirects, controller.signal),
    /** What the answer says of itself, once the last hop has answered. */
    answered: (response: http.IncomingMessage) => ({
      status: response.statusCode ?? 0,
      headers: responseHeaders(response),
      url: hops.url.href,
      redirects: hops.redirects,
    }),
    failure: (error: unknown) =>
      asOutboundError(
        error,
        hops.url,
        hops.redirects.length > 0,
        controller.signal,
        options.signal,
      ),
    stopTimer: () => clearTimeout(timer),
    /** Lets go of the caller's signal, once nothing more is read. */
    release: () => options.signal?.removeEventListener('abort', onCallerAbort),
  };
};

const checkedMethod = (given: string | undefined) => {
  const method = (given ?? 'GET').toUpperCase();
  if (!methods.has(method)) {
    throw new OutboundError(
      'outbound:failed',
      `Chorus does not send ${method.slice(0, 20)} requests. Use GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS.`,
    );
  }
  return method;
};

/** Where a request has got to: the URL of the hop under way and the redirects so far. */
type HopState = { url: URL; redirects: string[] };

/** Sends the request and follows its redirects by hand, each hop checked; the last response. */
const followHops = async (
  hops: HopState,
  method: string,
  options: Pick<SafeFetchOptions, 'headers' | 'body' | 'allow' | 'lookup'>,
  maxRedirects: number,
  signal: AbortSignal,
): Promise<http.IncomingMessage> => {
  let request: HopRequest = {
    method,
    headers: requestHeaders(options.headers, options.body !== undefined),
    body: options.body === undefined ? undefined : Buffer.from(options.body),
  };
  const allow = compileAllowList(options.allow);
  const lookup = options.lookup ?? defaultLookup;
  for (;;) {
    const response = await sendHop(hops.url, request, {
      allow,
      lookup,
      viaRedirect: hops.redirects.length > 0,
      signal,
    });
    const location = response.headers.location;
    if (!(redirectStatuses.has(response.statusCode ?? 0) && location)) return response;
    response.destroy();
    if (hops.redirects.length >= maxRedirects) throw tooManyRedirects(maxRedirects);
    const next = nextHop(hops.url, location);
    request = redirectedRequest(request, response.statusCode!, hops.url, next);
    hops.redirects.push(next.href);
    hops.url = next;
  }
};

type HopRequest = { method: string; headers: Record<string, string>; body: Buffer | undefined };

const parseOrRefuse = (raw: string): URL => {
  const parsed = parseOutboundUrl(raw);
  if (!parsed.ok) throw new OutboundRefusedError(parsed.reason, parsed.message);
  return parsed.url;
};

const nextHop = (from: URL, location: string): URL => {
  let resolved: string;
  try {
    resolved = new URL(location, from).href;
  } catch {
    throw new OutboundError(
      'outbound:failed',
      'The site redirected to an address that is not a valid URL.',
    );
  }
  return parseOrRefuse(resolved);
};

const requestHeaders = (given: Record<string, string> | undefined, hasBody: boolean) => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given ?? {})) {
    const key = name.toLowerCase();
    if (!droppedRequestHeaders.has(key)) headers[key] = value;
  }
  headers['user-agent'] ??= 'Chorus';
  if (!hasBody) delete headers['content-type'];
  return headers;
};

/** The request for the next hop, as browsers do it: 303 (and 301/302 after a POST) become a GET. */
const redirectedRequest = (request: HopRequest, status: number, from: URL, to: URL): HopRequest => {
  const toGet =
    (status === 303 && request.method !== 'HEAD') ||
    ((status === 301 || status === 302) && request.method === 'POST');
  const body = toGet ? undefined : request.body;
  let headers = { ...request.headers };
  if (from.origin !== to.origin) {
    headers = Object.fromEntries(
      Object.entries(headers).filter(([name]) => crossOriginHeaders.has(name)),
    );
  }
  if (!body) delete headers['content-type'];
  return { method: toGet ? 'GET' : request.method, headers, body };
};

type HopContext = {
  allow: CompiledAllowList;
  lookup: LookupFunction;
  viaRedirect: boolean;
  signal: AbortSignal;
};

const refusalFor = (address: string, viaRedirect: boolean) => {
  const kind = classifyAddress(address);
  return addressRefusal(kind === 'public' ? 'reserved' : kind, address, viaRedirect);
};

/** Resolves as the lookup it wraps, but fails when any address it returns is not allowed. */
const checkedLookup =
  (base: LookupFunction, check: (address: string) => OutboundRefusedError | undefined) =>
  (...[hostname, options, callback]: Parameters<LookupFunction>) => {
    base(hostname, options, (error, result, family) => {
      if (error) return callback(error, result, family);
      const addresses =
        typeof result === 'string' ? [result] : result.map((a: LookupAddress) => a.address);
      for (const address of addresses) {
        const refusal = check(address);
        if (refusal) return callback(refusal, options.all ? [] : '', family);
      }
      callback(null, result, family);
    });
  };

/** Sends one request and resolves with its response, headers read, body not yet. */
const sendHop = (url: URL, request: HopRequest, context: HopContext) => {
  const { allow, viaRedirect, signal } = context;
  const literal = literalAddress(url);
  if (literal !== undefined && !isAllowedAddress(allow, url.hostname, literal)) {
    throw refusalFor(literal, viaRedirect);
  }
  const lookup = checkedLookup(context.lookup, (address) =>
    isAllowedAddress(allow, url.hostname, address) ? undefined : refusalFor(address, viaRedirect),
  );
  const filter = {
    keepAlive: false,
    // The agent's own check runs after ours on every resolved address, and on an address given
    // as the host; it learns the admin's allowances so that the two agree.
    allowPrivateIPAddress: isAllowedHostName(allow, url.hostname),
    allowIPAddressList: allowListRanges(allow),
  };
  const isHttps = url.protocol === 'https:';
  const agent = isHttps
    ? new RequestFilteringHttpsAgent(filter)
    : new RequestFilteringHttpAgent(filter);
  const headers: Record<string, string> = {
    ...request.headers,
    'accept-encoding': 'gzip, deflate, br',
  };
  if (request.body) headers['content-length'] = String(request.body.length);

  return new Promise<http.IncomingMessage>((resolve, reject) => {
    signal.throwIfAborted();
    let req: http.ClientRequest;
    try {
      req = (isHttps ? https : http).request({
        protocol: url.protocol,
        hostname: literal ?? url.hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers,
        agent,
        lookup,
      });
    } catch {
      // Node refuses a header name or value HTTP does not allow; its words may quote the value.
      agent.destroy();
      reject(
        new OutboundError(
          'outbound:failed',
          'A request header has a name or value that HTTP does not allow. Check the headers.',
        ),
      );
      return;
    }
    const onAbort = () => req.destroy(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      agent.destroy();
      reject(error);
    });
    req.on('response', (response) => {
      signal.removeEventListener('abort', onAbort);
      response.on('close', () => agent.destroy());
      resolve(response);
    });
    req.end(request.body);
  });
};

const decoderFor = (encoding: string | undefined) => {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
};

/** Reads the body up to `maxBytes`, decompressed; past that it stops reading and says so. */
const readBody = async (response: http.IncomingMessage, maxBytes: number, signal: AbortSignal) => {
  const decoder = decoderFor(response.headers['content-encoding']);
  const source: Readable = decoder ? pipeline(response, decoder, () => {}) : response;
  const onAbort = () => {
    response.destroy(signal.reason);
    decoder?.destroy(signal.reason);
  };
  signal.throwIfAborted();
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    response.destroy();
  }
  return { body: new Uint8Array(Buffer.concat(chunks, size)), truncated };
};

/** A stream body too long for its cap. */
const bodyTooLong = (maxBytes: number) =>
  new OutboundError(
    'outbound:failed',
    `The answer went on past ${maxBytes.toLocaleString('en-US')} bytes, more than Chorus reads, so it was stopped.`,
  );

/** The body as a web stream, decompressed, with its caps; cancelling it closes the connection. */
const streamBody = (
  response: http.IncomingMessage,
  caps: {
    maxBytes: number;
    idleTimeoutMs: number;
    durationLeftMs: number;
    signal: AbortSignal;
    fail: (error: unknown) => unknown;
    done: () => void;
  },
): ReadableStream<Uint8Array> => {
  const decoder = decoderFor(response.headers['content-encoding']);
  const source: Readable = decoder ? pipeline(response, decoder, () => {}) : response;
  let size = 0;
  let finished = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let durationTimer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const finish = () => {
    finished = true;
    clearTimeout(idleTimer);
    clearTimeout(durationTimer);
    caps.signal.removeEventListener('abort', onAbort);
    caps.done();
    response.destroy();
    decoder?.destroy();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (error: unknown) => {
        if (finished) return;
        finish();
        controller.error(caps.fail(error));
      };
      const armIdle = () => {
        clearTimeout(idleTimer);
        // A body nobody reads must not keep the process alive until its caps run out.
        idleTimer = setTimeout(
          () => fail(new OutboundTimeoutError(caps.idleTimeoutMs)),
          caps.idleTimeoutMs,
        ).unref();
      };
      if (caps.signal.aborted) return fail(caps.signal.reason);
      onAbort = () => fail(caps.signal.reason);
      caps.signal.addEventListener('abort', onAbort, { once: true });
      durationTimer = setTimeout(
        () => fail(new OutboundTimeoutError(caps.durationLeftMs)),
        caps.durationLeftMs,
      ).unref();
      armIdle();
      source.on('data', (chunk: Buffer) => {
        if (finished) return;
        size += chunk.length;
        if (size > caps.maxBytes) return fail(bodyTooLong(caps.maxBytes));
        armIdle();
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
        if ((controller.desiredSize ?? 1) <= 0) source.pause();
      });
      source.on('end', () => {
        if (finished) return;
        finish();
        controller.close();
      });
      source.on('error', fail);
      // A connection closed before the body's end, without an error of its own.
      source.on('close', () => {
        if (!finished) fail(Object.assign(new Error('closed'), { code: 'ECONNRESET' }));
      });
    },
    pull() {
      if (!finished) source.resume();
    },
    cancel() {
      if (!finished) finish();
    },
  });
};

const responseHeaders = (response: http.IncomingMessage) => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (decoderFor(headers['content-encoding'])) {
    // The body handed back is decoded: these described the bytes on the wire.
    delete headers['content-encoding'];
    delete headers['content-length'];
  }
  return headers;
};

// request-filtering-agent's own refusal: "DNS lookup 10.0.0.1(family:4, host:x) is not allowed…".
const agentRefusal = /^DNS lookup (\S+?)\(.*is not allowed/;

/** Every failure as an OutboundError, except the caller's own abort, which is theirs. */
const asOutboundError = (
  error: unknown,
  url: URL,
  viaRedirect: boolean,
  signal: AbortSignal,
  callerSignal: AbortSignal | undefined,
): unknown => {
  if (error instanceof OutboundError) return error;
  if (signal.aborted) {
    if (signal.reason instanceof OutboundError) return signal.reason;
    if (callerSignal?.aborted) return callerSignal.reason;
  }
  const refused = error instanceof Error ? agentRefusal.exec(error.message) : null;
  if (refused) return refusalFor(refused[1]!, viaRedirect);
  return connectionFailure(url.hostname, error);
};
