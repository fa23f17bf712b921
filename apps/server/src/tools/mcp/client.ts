// The one way the server talks to a user's MCP server (issue 18 point 5): remote only, Streamable
// HTTP with the older SSE transport as fallback, every request through the outbound guard
// (outbound-fetch.ts). No stdio transport is ever imported: the server never starts a process
// for a user (ARCHITECTURE §11).
import { createHash } from 'node:crypto';
import {
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SseError, SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolLimits } from '@chorus/shared/api/tools';
import {
  OutboundError,
  OutboundRefusedError,
  OutboundTimeoutError,
} from '../../net/outbound-errors.ts';
import type { OutboundContext } from '../builtin/web-fetch.ts';
import { createMcpFetch } from './outbound-fetch.ts';

export type McpTransportKind = 'streamable-http' | 'sse';

/** A tool as an MCP server describes it; what the hash covers. */
export type McpToolDefinition = {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
};

export const mcpClientLimits = {
  /** Connecting (the initialize exchange), listing tools, and one tool call. */
  timeoutMs: toolLimits.timeoutMs,
  /** Tools read from one server; the rest are not offered. */
  tools: 200,
  listPages: 10,
  /** A tool whose name or description is longer is not offered. */
  toolName: 128,
  toolDescription: 10_000,
} as const;

/** Why talking to an MCP server failed, in words a person can act on (never the token). */
export class McpFailure extends Error {
  constructor(
    readonly code:
      'outbound:refused' | 'outbound:timeout' | 'mcp:connect_failed' | 'mcp:authorization_required',
    message: string,
  ) {
    super(message);
    this.name = 'McpFailure';
  }
}

/** JSON with its object keys sorted at every depth, so equal definitions hash alike. */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

/** sha256 (hex) of the canonical JSON of {name, description, inputSchema}. */
export const hashToolDefinition = (tool: McpToolDefinition): string =>
  createHash('sha256')
    .update(
      canonicalJson({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
      }),
    )
    .digest('hex');

const connectFailed = (message: string) => new McpFailure('mcp:connect_failed', message);

/** The failure a person reads, from the guard's own error when there was one. */
const describeFailure = (error: unknown, outbound: OutboundError | undefined): McpFailure => {
  if (error instanceof McpFailure) return error;
  if (error instanceof UnauthorizedError) {
    return new McpFailure(
      'mcp:authorization_required',
      'This MCP server needs you to sign in to it. Choose “Sign in” on the server under Tools, then try again.',
    );
  }
  const guard = error instanceof OutboundError ? error : outbound;
  if (guard instanceof OutboundRefusedError)
    return new McpFailure('outbound:refused', guard.message);
  if (guard instanceof OutboundTimeoutError)
    return new McpFailure('outbound:timeout', guard.message);
  if (guard) return connectFailed(guard.message);
  const status =
    error instanceof StreamableHTTPError || error instanceof SseError ? error.code : undefined;
  if (status === 401 || status === 403) {
    return connectFailed(
      `The MCP server turned the request away (HTTP status ${status}). Check the token, then try again.`,
    );
  }
  if (status !== undefined && status > 0) {
    return connectFailed(
      `The server answered with HTTP status ${status}, not as an MCP server. Check the URL, then try again.`,
    );
  }
  if (error instanceof McpError && error.code === -32001) {
    return connectFailed('The MCP server did not answer in time. Try again later.');
  }
  if (error instanceof McpError) {
    return connectFailed('The MCP server answered the connection with an error. Try again later.');
  }
  return connectFailed(
    'The server did not answer as an MCP server. Check its URL and token, then try again.',
  );
};

/** Whether a failed Streamable HTTP attempt means the server may speak the older SSE transport. */
const mayBeSseServer = (error: unknown) => {
  if (!(error instanceof StreamableHTTPError)) return false;
  const status = error.code ?? 0;
  return status === -1 || (status >= 400 && status < 500 && status !== 401 && status !== 403);
};

export type McpCallResult = {
  /** Text parts joined; other parts as JSON; cut at toolLimits.resultChars. */
  output: string;
  isError: boolean;
};

export type McpConnection = {
  transport: McpTransportKind;
  listTools: () => Promise<McpToolDefinition[]>;
  callTool: (
    name: string,
    input: Record<string, unknown>,
    signal?: AbortSignal,
  ) => Promise<McpCallResult>;
  close: () => Promise<void>;
};

export type McpTarget = {
  url: string;
  token: string | null;
  /** For `auth: "oauth"`: the stored OAuth state, which the SDK reads and refreshes. */
  authProvider?: (OAuthClientProvider & { accessToken(): string | null }) | undefined;
};

/** Cuts a tool's answer to what a model is handed, with a marker. */
const capped = (text: string) => {
  const limit = toolLimits.resultChars;
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n\n[… cut here: the answer goes on past ${limit.toLocaleString('en-US')} characters]`;
};

/** A tool's answer as data a model reads: text joined, other parts summarised as JSON. */
export const toolResultText = (result: CallToolResult | Record<string, unknown>): string => {
  const content = Array.isArray(result.content)
    ? (result.content as CallToolResult['content'])
    : [];
  const parts = content.map((part) => {
    switch (part.type) {
      case 'text':
        return part.text;
      case 'image':
      case 'audio':
        return JSON.stringify({
          type: part.type,
          mimeType: part.mimeType,
          bytes: Math.floor((part.data.length * 3) / 4),
        });
      case 'resource':
        return JSON.stringify({
          type: 'resource',
          uri: part.resource.uri,
          ...('text' in part.resource && { text: part.resource.text }),
        });
      default:
        return JSON.stringify(part);
    }
  });
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  if (parts.length === 0 && 'toolResult' in result) parts.push(JSON.stringify(result.toolResult));
  return capped(parts.join('\n'));
};

const redact = (text: string, target: McpTarget) => {
  const secrets = [target.token, target.authProvider?.accessToken()];
  return secrets.reduce<string>(
    (out, secret) => (secret ? out.split(secret).join('[token]') : out),
    text,
  );
};

/**
 * Connects to a remote MCP server: Streamable HTTP first; when the server answers that with a
 * 4xx other than 401/403 (it predates Streamable HTTP), the older SSE transport. Throws an
 * `McpFailure`. The bearer token is sent as the Authorization header and appears in no error;
 * with OAuth the SDK sends the access token (refreshing it when the server turns it away) and a
 * sign-in needed is `mcp:authorization_required`.
 */
export const connectMcpServer = async (
  target: McpTarget,
  outbound: OutboundContext & { signal?: AbortSignal },
): Promise<McpConnection> => {
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw new McpFailure('outbound:refused', 'The MCP server’s URL is not a valid address.');
  }
  const headers: Record<string, string> = target.token
    ? { authorization: `Bearer ${target.token}` }
    : {};

  const attempt = async (kind: McpTransportKind) => {
    const failures: { last?: OutboundError } = {};
    const fetch = createMcpFetch(outbound, failures);
    const transport =
      kind === 'streamable-http'
        ? new StreamableHTTPClientTransport(url, {
            fetch,
            requestInit: { headers },
            authProvider: target.authProvider,
            redirectPolicy: 'follow',
            reconnectionOptions: {
              maxRetries: 0,
              initialReconnectionDelay: 1_000,
              maxReconnectionDelay: 1_000,
              reconnectionDelayGrowFactor: 1,
            },
          })
        : new SSEClientTransport(url, {
            fetch,
            requestInit: { headers },
            authProvider: target.authProvider,
            redirectPolicy: 'follow',
          });
    const client = new Client({ name: 'chorus', version: '1.0.0' }, { capabilities: {} });
    // The SDK reports transport trouble here as well as by rejecting; the rejection is enough.
    client.onerror = () => {};
    try {
      await client.connect(transport, {
        timeout: mcpClientLimits.timeoutMs,
        maxTotalTimeout: mcpClientLimits.timeoutMs,
        signal: outbound.signal,
      });
      return { client, failures };
    } catch (error) {
      await client.close().catch(() => {});
      outbound.signal?.throwIfAborted();
      throw Object.assign(new Error('attempt failed'), { error, failures });
    }
  };

  const asFailure = (thrown: unknown) => {
    const { error, failures } = thrown as { error: unknown; failures: { last?: OutboundError } };
    const failure = describeFailure(error, failures.last);
    return new McpFailure(failure.code, redact(failure.message, target));
  };

  let connected: Awaited<ReturnType<typeof attempt>>;
  let kind: McpTransportKind = 'streamable-http';
  try {
    connected = await attempt('streamable-http');
  } catch (first) {
    if (!mayBeSseServer((first as { error?: unknown }).error)) throw asFailure(first);
    try {
      kind = 'sse';
      connected = await attempt('sse');
    } catch (second) {
      const sseFailure = asFailure(second);
      // A refusal or timeout on the SSE attempt says more than the first attempt's 4xx.
      throw sseFailure.code === 'mcp:connect_failed' ? asFailure(first) : sseFailure;
    }
  }
  const { client, failures } = connected;

  const wrap = async <T>(run: () => Promise<T>): Promise<T> => {
    failures.last = undefined;
    try {
      return await run();
    } catch (error) {
      const failure = describeFailure(error, failures.last as OutboundError | undefined);
      throw new McpFailure(failure.code, redact(failure.message, target));
    }
  };

  return {
    transport: kind,
    listTools: () =>
      wrap(async () => {
        const tools: McpToolDefinition[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < mcpClientLimits.listPages; page += 1) {
          const answer = await client.listTools(cursor === undefined ? {} : { cursor }, {
            timeout: mcpClientLimits.timeoutMs,
            signal: outbound.signal,
          });
          for (const tool of answer.tools) {
            const description = tool.description ?? '';
            const inputSchema = tool.inputSchema as Record<string, unknown>;
            if (
              tool.name.length > mcpClientLimits.toolName ||
              description.length > mcpClientLimits.toolDescription ||
              JSON.stringify(inputSchema).length > toolLimits.schemaChars
            ) {
              continue;
            }
            tools.push({ name: tool.name, description, inputSchema });
          }
          cursor = answer.nextCursor;
          if (!cursor || tools.length >= mcpClientLimits.tools) break;
        }
        return tools.slice(0, mcpClientLimits.tools);
      }),
    callTool: async (name, input, signal) => {
      failures.last = undefined;
      const signals = [outbound.signal, signal].filter((s): s is AbortSignal => !!s);
      try {
        const result = await client.callTool({ name, arguments: input }, undefined, {
          timeout: mcpClientLimits.timeoutMs,
          maxTotalTimeout: mcpClientLimits.timeoutMs,
          signal: signals.length ? AbortSignal.any(signals) : undefined,
        });
        return {
          output: redact(toolResultText(result), target),
          isError: result.isError === true,
        };
      } catch (error) {
        for (const s of signals) s.throwIfAborted();
        // Set by the fetch while the call ran (TypeScript cannot see that).
        const guard = failures.last as OutboundError | undefined;
        if (guard) return { output: redact(guard.message, target), isError: true };
        if (error instanceof McpError && error.code === -32001) {
          return {
            output: `The tool did not answer within ${mcpClientLimits.timeoutMs / 1000} seconds.`,
            isError: true,
          };
        }
        const message =
          error instanceof McpError
            ? (error as Error).message
            : describeFailure(error, undefined).message;
        return { output: redact(capped(message), target), isError: true };
      }
    },
    close: async () => {
      await client.close().catch(() => {});
    },
  };
};
