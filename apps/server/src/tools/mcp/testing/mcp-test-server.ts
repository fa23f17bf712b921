import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  InvalidGrantError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {
  OAuthClientInformationFull,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** One tool the test server offers: its definition and what a call answers. */
export type McpTestTool = {
  name: string;
  description: string;
  input: z.ZodRawShape;
  run: (args: Record<string, unknown>) => CallToolResult | Promise<CallToolResult>;
};

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** `add` {a, b} → the sum, and `echo` {text} → the text. */
export const defaultMcpTestTools = (): McpTestTool[] => [
  {
    name: 'add',
    description: 'Adds two numbers.',
    input: { a: z.number().describe('The first number'), b: z.number().describe('The second') },
    run: ({ a, b }) => text(String(Number(a) + Number(b))),
  },
  {
    name: 'echo',
    description: 'Says the text back.',
    input: { text: z.string() },
    run: ({ text: said }) => text(String(said)),
  },
];

export type McpTestServer = {
  /** Where a client connects: `/mcp` (Streamable HTTP), or `/sse` for an SSE-only server. */
  url: string;
  origin: string;
  port: number;
  /** Every request received: method, path and its Authorization header. */
  received: { method: string; path: string; authorization: string | undefined }[];
  /** Replaces the tools offered from the next request on. */
  setTools: (tools: McpTestTool[]) => void;
  /** Changes one tool's description (a definition change, as in tool poisoning). */
  setDescription: (name: string, description: string) => void;
  /** With `oauth: true`: the authorization server's own view, to drive expiry in tests. */
  oauth: TestOAuthProvider | undefined;
  close: () => Promise<void>;
};

/**
 * An in-memory OAuth authorization server for the test MCP server (the SDK's `mcpAuthRouter`
 * serves its metadata, registration, authorize and token endpoints). `authorize` approves at
 * once, redirecting straight back with a code; tokens can be expired or refused by the test.
 */
export class TestOAuthProvider implements OAuthServerProvider {
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { clientId: string; challenge: string }>();
  private readonly access = new Map<string, { clientId: string; expiresAt: number }>();
  private readonly refresh = new Map<string, string>();
  /** Every access token handed out, to check none leaks. */
  readonly issued: string[] = [];

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: (clientId) => this.clients.get(clientId),
    registerClient: (client) => {
      const full = { ...client, client_id: randomUUID(), client_id_issued_at: Date.now() / 1000 };
      this.clients.set(full.client_id, full);
      return full;
    },
  };

  // Express's Response (the SDK's router hands it over); only `redirect` is used.
  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: { redirect: (url: string) => void },
  ): Promise<void> {
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, challenge: params.codeChallenge });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(
    _client: OAuthClientInformationFull,
    code: string,
  ): Promise<string> {
    const entry = this.codes.get(code);
    if (!entry) throw new InvalidGrantError('Unknown authorization code');
    return entry.challenge;
  }

  private issue(clientId: string): OAuthTokens {
    const token = `at-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    this.access.set(token, { clientId, expiresAt: Date.now() + 3_600_000 });
    this.refresh.set(refreshToken, clientId);
    this.issued.push(token, refreshToken);
    return {
      access_token: token,
      token_type: 'bearer',
      expires_in: 3600,
      refresh_token: refreshToken,
    };
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
  ): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    if (!entry || entry.clientId !== client.client_id) {
      throw new InvalidGrantError('Unknown authorization code');
    }
    this.codes.delete(code);
    return this.issue(client.client_id);
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
  ): Promise<OAuthTokens> {
    if (this.refresh.get(refreshToken) !== client.client_id) {
      throw new InvalidGrantError('Unknown refresh token');
    }
    this.refresh.delete(refreshToken);
    return this.issue(client.client_id);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const entry = this.access.get(token);
    if (!entry || entry.expiresAt < Date.now()) throw new InvalidTokenError('Invalid token');
    return {
      token,
      clientId: entry.clientId,
      scopes: [],
      expiresAt: Math.floor(entry.expiresAt / 1000),
    };
  }

  /** Every access token stops working (the refresh tokens still do). */
  expireAccessTokens(): void {
    this.access.clear();
  }

  /** Every refresh token stops working too. */
  revokeRefreshTokens(): void {
    this.refresh.clear();
  }
}

type Handler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;
type ExpressApp = Handler & { use: (...args: unknown[]) => void };
// express comes with the SDK (its server auth is built on it) but without type declarations.
const express = createRequire(import.meta.url)('express') as () => ExpressApp;

const readJson = async (req: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  return raw ? (JSON.parse(raw) as unknown) : undefined;
};

const answer = (res: ServerResponse, status: number, body: string, headers = {}) => {
  res.writeHead(status, { 'content-type': 'text/plain', ...headers });
  res.end(body);
};

/**
 * A real MCP server for tests and the browser e2e runs, built with the SDK: Streamable HTTP on
 * `/mcp` (stateless: a fresh server per request, so a changed tool shows on the next request),
 * or, with `sseOnly`, the older SSE transport on `/sse` + `/messages` while `/mcp` and a POST to
 * `/sse` answer 405 like a server that predates Streamable HTTP. Bound to 127.0.0.1 only.
 */
export const startMcpTestServer = async (
  opts: { token?: string; sseOnly?: boolean; port?: number; host?: string; oauth?: boolean } = {},
): Promise<McpTestServer> => {
  let tools = defaultMcpTestTools();
  const received: McpTestServer['received'] = [];
  const sseSessions = new Map<string, SSEServerTransport>();

  const buildServer = () => {
    const server = new McpServer({ name: 'chorus-mcp-test-server', version: '1.0.0' });
    for (const tool of tools) {
      server.registerTool(
        tool.name,
        { description: tool.description, inputSchema: tool.input },
        async (args: Record<string, unknown>) => tool.run(args),
      );
    }
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    received.push({
      method: req.method ?? '',
      path: url.pathname,
      authorization: req.headers.authorization,
    });
    if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`) {
      return answer(res, 401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
    }
    if (!opts.sseOnly && url.pathname === '/mcp') {
      if (req.method !== 'POST') return answer(res, 405, 'Method not allowed', { allow: 'POST' });
      const server = buildServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      return transport.handleRequest(req, res, await readJson(req));
    }
    if (opts.sseOnly && url.pathname === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sseSessions.set(transport.sessionId, transport);
      res.on('close', () => sseSessions.delete(transport.sessionId));
      return buildServer().connect(transport);
    }
    if (opts.sseOnly && url.pathname === '/messages' && req.method === 'POST') {
      const transport = sseSessions.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) return answer(res, 404, 'No such session');
      return transport.handlePostMessage(req, res, await readJson(req));
    }
    if (url.pathname === '/mcp' || url.pathname === '/sse') {
      return answer(res, 405, 'Method not allowed');
    }
    return answer(res, 404, 'Not found');
  };

  const plain = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500, 'Internal error');
      else res.end();
    });
  };
  let withOAuth: ExpressApp | undefined;
  const http = createServer((req, res) => (withOAuth ?? plain)(req, res));
  await new Promise<void>((resolve) =>
    http.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve),
  );
  const { port } = http.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const provider = opts.oauth ? new TestOAuthProvider() : undefined;
  if (provider) {
    // The authorization server and the MCP endpoint behind it, on the same origin.
    const resource = new URL(`${origin}/mcp`);
    const app = express();
    app.use((req: IncomingMessage, _res: ServerResponse, next: () => void) => {
      const path = new URL(req.url ?? '/', origin).pathname;
      if (path !== '/mcp') {
        received.push({ method: req.method ?? '', path, authorization: req.headers.authorization });
      }
      next();
    });
    app.use(
      mcpAuthRouter({
        provider,
        issuerUrl: new URL(origin),
        resourceServerUrl: resource,
        authorizationOptions: { rateLimit: false },
        tokenOptions: { rateLimit: false },
        clientRegistrationOptions: { rateLimit: false },
        revocationOptions: { rateLimit: false },
      }),
    );
    app.use(
      '/mcp',
      requireBearerAuth({
        verifier: provider,
        resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource),
      }),
    );
    app.use(plain);
    withOAuth = app;
  }
  return {
    oauth: provider,
    url: `${origin}${opts.sseOnly ? '/sse' : '/mcp'}`,
    origin,
    port,
    received,
    setTools: (next) => {
      tools = next;
    },
    setDescription: (name, description) => {
      tools = tools.map((tool) => (tool.name === name ? { ...tool, description } : tool));
    },
    close: async () => {
      await Promise.all([...sseSessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
};
