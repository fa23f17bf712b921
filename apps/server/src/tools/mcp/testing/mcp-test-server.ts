import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
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
  close: () => Promise<void>;
};

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
  opts: { token?: string; sseOnly?: boolean; port?: number; host?: string } = {},
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

  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500, 'Internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve) =>
    http.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve),
  );
  const { port } = http.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
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
