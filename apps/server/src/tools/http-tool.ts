// HTTP tools (issue 18): an endpoint a user describes, called by a model or by a test from the
// Tools page. The URL is filled by plain substitution of `{name}` placeholders, never by a
// template engine (ARCHITECTURE §11: user content is data), and every request goes through
// safe-fetch, so its address is checked at connect time at every redirect hop.
import type { LookupFunction } from 'node:net';
import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';
import { toolLimits, type httpMethods } from '@chorus/shared/api/tools';
import type { HttpToolRow, SecretHeader } from '../db/repositories/http-tools.ts';
import { parseOutboundUrl, type AllowList } from '../net/address-check.ts';
import { OutboundError, OutboundRefusedError } from '../net/outbound-errors.ts';
import { safeFetch } from '../net/safe-fetch.ts';
import { toolFailure, type ToolFailure } from './builtin/tool-failure.ts';

export type HttpMethod = (typeof httpMethods)[number];

/** What a request is built from: the parts of a stored tool that shape it. */
export type HttpToolDefinition = Pick<HttpToolRow, 'method' | 'url_template' | 'headers'>;

export type RenderedHeader = { name: string; value: string; secret: boolean };

/** A request ready to send; secret header values are in it, so it is never logged or returned. */
export type HttpToolRequest = {
  method: HttpMethod;
  url: string;
  headers: RenderedHeader[];
  /** JSON for POST, PUT and PATCH; null for GET and DELETE. */
  body: string | null;
};

export type HttpToolResponse = {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body as text, cut at `toolLimits.resultChars` with a marker. */
  body: string;
  /** The body was longer than what is given here. */
  truncated: boolean;
  duration_ms: number;
};

/** How a call reaches the network: the admin's allow-list, a caller's stop, a lookup for tests. */
export type HttpToolContext = { allow: AllowList; signal?: AbortSignal; lookup?: LookupFunction };

/** The input cannot fill the request (a placeholder without a value): the caller's to fix. */
export class HttpToolInputError extends Error {
  override name = 'HttpToolInputError';
}

const placeholder = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

const bodyMethods = new Set<string>(['POST', 'PUT', 'PATCH']);

/** The names of the template's `{name}` placeholders, each once, in order. */
export const urlPlaceholders = (template: string): string[] => [
  ...new Set(Array.from(template.matchAll(placeholder), (m) => m[1]!)),
];

const schemaProperties = (schema: Record<string, unknown>): Record<string, unknown> => {
  const { properties } = schema;
  return typeof properties === 'object' && properties !== null && !Array.isArray(properties)
    ? (properties as Record<string, unknown>)
    : {};
};

/**
 * Why a URL template cannot be saved, or undefined when it can: once its placeholders hold a value
 * it must be an http(s) URL, and each placeholder must be a property of the input schema.
 */
export const urlTemplateProblem = (
  template: string,
  inputSchema: Record<string, unknown>,
): string | undefined => {
  const properties = schemaProperties(inputSchema);
  const unknown = urlPlaceholders(template).find((name) => !Object.hasOwn(properties, name));
  if (unknown !== undefined) {
    return `The URL has the placeholder {${unknown}}, but the input schema has no property "${unknown}". Add it to the schema's properties, or take it out of the URL.`;
  }
  const filled = template.replace(placeholder, 'x');
  if (/[{}]/.test(filled)) {
    return 'A placeholder in the URL is a name in braces, made of letters, digits and underscores, like {city}. Fix or remove the other braces.';
  }
  const parsed = parseOutboundUrl(filled);
  return parsed.ok ? undefined : parsed.message;
};

const asText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
      ? String(value)
      : JSON.stringify(value);

const hasHeader = (headers: RenderedHeader[], name: string) =>
  headers.some((h) => h.name.toLowerCase() === name);

/**
 * Builds the request a call sends: the template's placeholders filled with the URL-encoded input
 * values; the other input properties as query parameters (GET, DELETE) or as the JSON body
 * (POST, PUT, PATCH). Throws HttpToolInputError for a placeholder without a value, and
 * OutboundRefusedError when the filled URL is not one Chorus fetches.
 */
export const renderHttpRequest = (
  definition: HttpToolDefinition,
  input: Record<string, unknown>,
  secrets: readonly SecretHeader[],
): HttpToolRequest => {
  const method = definition.method.toUpperCase() as HttpMethod;
  const used = new Set<string>();
  const filled = definition.url_template.trim().replace(placeholder, (_match, name: string) => {
    const value = Object.hasOwn(input, name) ? input[name] : undefined;
    if (value === undefined || value === null) {
      throw new HttpToolInputError(`Give a value for "${name}": the URL needs it.`);
    }
    used.add(name);
    return encodeURIComponent(asText(value));
  });
  const parsed = parseOutboundUrl(filled);
  if (!parsed.ok) throw new OutboundRefusedError(parsed.reason, parsed.message);
  const url = parsed.url;

  const rest = Object.entries(input).filter(
    ([name, value]) => !used.has(name) && value !== undefined,
  );
  let body: string | null = null;
  if (bodyMethods.has(method)) {
    body = JSON.stringify(Object.fromEntries(rest));
  } else {
    for (const [name, value] of rest) {
      if (value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        url.searchParams.append(name, asText(item));
      }
    }
  }

  const headers: RenderedHeader[] = [
    ...definition.headers.map((h) => ({ name: h.name, value: h.value, secret: false })),
    ...secrets.map((h) => ({ name: h.name, value: h.value, secret: true })),
  ];
  if (!hasHeader(headers, 'accept')) {
    headers.push({
      name: 'Accept',
      value: 'application/json, text/plain;q=0.9, */*;q=0.5',
      secret: false,
    });
  }
  if (body !== null && !hasHeader(headers, 'content-type')) {
    headers.push({ name: 'Content-Type', value: 'application/json', secret: false });
  }
  return { method, url: url.href, headers, body };
};

const charsetOf = (contentType: string | undefined) =>
  /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];

const decode = (body: Uint8Array, charset: string | undefined) => {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
};

/** Cuts a long answer where a model's context can take it, saying so in the text. */
const cutResult = (text: string) => {
  const limit = toolLimits.resultChars;
  if (text.length <= limit) return { text, cut: false };
  return {
    text: `${text.slice(0, limit)}\n\n[… cut here: the response goes on past ${limit.toLocaleString('en-US')} characters]`,
    cut: true,
  };
};

/**
 * Sends a rendered request through safe-fetch with the HTTP tools' time and size caps. An HTTP
 * error status is an answer; a refusal, timeout or failure throws an OutboundError whose message
 * never holds a header.
 */
export const callHttpTool = async (
  request: HttpToolRequest,
  context: HttpToolContext,
): Promise<HttpToolResponse> => {
  const started = performance.now();
  const headers: Record<string, string> = {};
  for (const h of request.headers) headers[h.name.toLowerCase()] = h.value;
  const response = await safeFetch(request.url, {
    method: request.method,
    headers,
    body: request.body ?? undefined,
    timeoutMs: toolLimits.timeoutMs,
    maxBytes: toolLimits.maxBytes,
    allow: context.allow,
    lookup: context.lookup,
    signal: context.signal,
  });
  const text = cutResult(decode(response.body, charsetOf(response.headers['content-type'])));
  return {
    status: response.status,
    headers: response.headers,
    body: text.text,
    truncated: text.cut || response.truncated,
    duration_ms: Math.round(performance.now() - started),
  };
};

/** What the model reads back from a call: the answer as data, without headers like cookies. */
export type HttpToolResult = {
  status: number;
  content_type: string;
  body: string;
  truncated: boolean;
};

const asInput = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

const joinSignals = (...signals: (AbortSignal | undefined)[]) => {
  const given = signals.filter((s): s is AbortSignal => s !== undefined);
  return given.length > 1 ? AbortSignal.any(given) : given[0];
};

/** One call as a model makes it: a refusal or failure is a tool error it can read, never a throw. */
export const runHttpTool = async (
  definition: HttpToolDefinition,
  input: unknown,
  secrets: readonly SecretHeader[],
  context: HttpToolContext,
): Promise<HttpToolResult | ToolFailure> => {
  try {
    const request = renderHttpRequest(definition, asInput(input), secrets);
    const response = await callHttpTool(request, context);
    return {
      status: response.status,
      content_type: response.headers['content-type'] ?? '',
      body: response.body,
      truncated: response.truncated,
    };
  } catch (error) {
    if (error instanceof HttpToolInputError || error instanceof OutboundError) {
      return toolFailure(error.message);
    }
    throw error;
  }
};

/** A stored HTTP tool as an AI SDK tool; its secrets are opened by the caller and kept here. */
export const httpToolForModel = (
  row: Pick<HttpToolRow, 'name' | 'description' | 'input_schema'> & HttpToolDefinition,
  secrets: readonly SecretHeader[],
  context: HttpToolContext,
): Tool<Record<string, unknown>, HttpToolResult | ToolFailure> =>
  tool({
    description:
      row.description.trim() ||
      `Sends an HTTP ${row.method.toUpperCase()} request to ${row.url_template} and returns the answer.`,
    inputSchema: jsonSchema<Record<string, unknown>>(row.input_schema as JSONSchema7),
    execute: (input, { abortSignal }) =>
      runHttpTool(row, input, secrets, {
        ...context,
        signal: joinSignals(context.signal, abortSignal),
      }),
  });
