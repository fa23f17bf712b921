/**
 * `npx tsx tools/mcp-test-server/main.ts`: a real MCP server (the SDK's) on 127.0.0.1 for the
 * browser e2e tests and for trying Chorus's MCP support by hand. Tools: `add` and `echo`.
 *
 * PORT (default 8788), MCP_TOKEN (a bearer token the server requires; none by default) and
 * MCP_SSE_ONLY=1 (speak only the older SSE transport, on /sse).
 */
import { startMcpTestServer } from '../../apps/server/src/tools/mcp/testing/mcp-test-server.ts';

const readPort = (raw: string | undefined): number => {
  if (raw === undefined || raw === '') return 8788;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`[mcp-test-server] PORT must be a port number, got "${raw}".`);
    process.exit(1);
  }
  return value;
};

const server = await startMcpTestServer({
  port: readPort(process.env.PORT),
  token: process.env.MCP_TOKEN || undefined,
  sseOnly: process.env.MCP_SSE_ONLY === '1',
});

console.log(`Chorus MCP test server listening on ${server.url}`);
console.log(
  'Chorus refuses loopback addresses unless a super admin allows 127.0.0.1 under Settings.',
);

const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
