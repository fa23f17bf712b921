import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMcpTestServer } from '../../apps/server/src/tools/mcp/testing/mcp-test-server.ts';

/**
 * Where global setup started the servers agents' tools reach (workers inherit these):
 * - an MCP test server (Streamable HTTP) on 127.0.0.2, the address the agents spec allows;
 * - a private page on 127.0.0.1, which no tool may ever fetch;
 * - on 127.0.0.2, an address that redirects to that private page.
 * 127.0.0.1 is never on the allow-list, so its refusal holds while the spec allows 127.0.0.2.
 */
export const toolTargetsEnv = {
  mcpUrl: 'E2E_MCP_TEST_SERVER_URL',
  privatePageUrl: 'E2E_PRIVATE_PAGE_URL',
  redirectUrl: 'E2E_REDIRECT_TO_PRIVATE_URL',
  hitsUrl: 'E2E_TOOL_TARGET_HITS_URL',
} as const;

/** The address the agents spec lets tools reach; nothing else in the run uses it. */
export const allowedLoopbackHost = '127.0.0.2';

/** A secret only the private page holds: it must never show in a chat. */
export const privatePageSecret = 'private-page-secret-7f3a';

export type ToolTargets = { close: () => Promise<void> };

type Hits = { privatePage: number; redirect: number };

const listen = async (server: Server, host: string) => {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
};

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** Starts the tool targets and puts their URLs in the environment for the workers. */
export const startToolTargets = async (): Promise<ToolTargets> => {
  const hits: Hits = { privatePage: 0, redirect: 0 };
  const privatePage = createServer((req, res) => {
    if (req.url === '/_hits') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(hits));
      return;
    }
    hits.privatePage += 1;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Private</title><p>${privatePageSecret}</p>`);
  });
  const privatePort = await listen(privatePage, '127.0.0.1');
  const privateUrl = `http://127.0.0.1:${privatePort}/`;

  const redirector = createServer((_req, res) => {
    hits.redirect += 1;
    res.writeHead(302, { location: privateUrl });
    res.end();
  });
  const redirectPort = await listen(redirector, allowedLoopbackHost);

  const mcp = await startMcpTestServer({ host: allowedLoopbackHost });

  process.env[toolTargetsEnv.mcpUrl] = `http://${allowedLoopbackHost}:${mcp.port}/mcp`;
  process.env[toolTargetsEnv.privatePageUrl] = privateUrl;
  process.env[toolTargetsEnv.redirectUrl] =
    `http://${allowedLoopbackHost}:${redirectPort}/moved-page`;
  process.env[toolTargetsEnv.hitsUrl] = `${privateUrl}_hits`;

  return {
    close: async () => {
      await Promise.all([closeServer(privatePage), closeServer(redirector), mcp.close()]);
    },
  };
};

const readEnv = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`Global setup did not set ${name}`);
  return value;
};

/** The URLs of the tool targets, for a spec. */
export const toolTargets = () => ({
  mcpUrl: readEnv(toolTargetsEnv.mcpUrl),
  privatePageUrl: readEnv(toolTargetsEnv.privatePageUrl),
  redirectUrl: readEnv(toolTargetsEnv.redirectUrl),
});

/** How many requests the private page and the redirect have answered in this run. */
export const toolTargetHits = async (): Promise<Hits> => {
  const url = readEnv(toolTargetsEnv.hitsUrl);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()) as Hits;
};
