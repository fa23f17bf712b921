import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServer, McpTool } from '@chorus/shared/api/tools';
import { McpRepository } from '../../../db/repositories/mcp.ts';
import { mcpServers } from '../../../db/schema/index.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../../test/harness.ts';
import {
  startMcpTestServer,
  type McpTestServer,
  type TestOAuthProvider,
} from '../../../tools/mcp/testing/mcp-test-server.ts';

// OAuth for remote MCP servers (issue 18 point 5) against a real MCP server behind the SDK's
// OAuth router, on 127.0.0.1 (allowed by the super admin's allow-list). The authorization
// server approves at once; the test plays the browser. No request leaves the loopback interface.

type User = Awaited<ReturnType<TestApp['user']>>;

let t: TestApp;
let root: User;
let alice: User;
let bob: User;
let mcp: McpTestServer;
let provider: TestOAuthProvider;
/** Every API answer's raw JSON, to check no token is ever in one. */
const answers: string[] = [];

const record = <T extends { body: unknown }>(res: T): T => {
  answers.push(JSON.stringify(res.body));
  return res;
};

beforeAll(async () => {
  t = await startTestApp();
  root = await t.user('oauth-root@example.com');
  alice = await t.user('oauth-alice@example.com');
  bob = await t.user('oauth-bob@example.com');
  mcp = await startMcpTestServer({ oauth: true });
  provider = mcp.oauth!;
  const res = await root.request('PUT', '/rest/v1/admin/settings', {
    outbound_allow_hosts: ['127.0.0.1'],
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await mcp.close();
  await t.close();
});

/** A refused callback sends the browser back to Tools with the reason: answers its code. */
const refusalOf = (res: { status: number; headers: Headers }) => {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location') ?? '', 'http://app.test');
  expect(location.pathname).toBe('/tools');
  expect(location.searchParams.get('mcp_error')).toMatch(/^[A-Z]/);
  return location.searchParams.get('mcp_error_code');
};

const callbackPrefix = `${TEST_APP_URL}/rest/v1/mcp-servers/oauth/callback`;

/** Plays the browser at the authorization server: the callback path with its code and state. */
const authorize = async (authorizeUrl: string) => {
  expect(authorizeUrl.startsWith(`${mcp.origin}/authorize?`)).toBe(true);
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const location = res.headers.get('location')!;
  expect(location.startsWith(`${callbackPrefix}?`)).toBe(true);
  const back = new URL(location);
  expect(back.searchParams.get('code')).toBeTruthy();
  expect(back.searchParams.get('state')).toBeTruthy();
  return `${back.pathname}${back.search}`;
};

const getServer = async (who: User, id: string) =>
  record(await who.get<McpServer>(`/rest/v1/mcp-servers/${id}`));

const toolNamed = (server: McpServer, name: string): McpTool =>
  server.tools.find((tool) => tool.name === name)!;

describe('an MCP server behind OAuth', () => {
  let server: McpServer;

  it('asks the user to sign in, then finishes the sign-in on the callback and lists the tools', async () => {
    const created = record(
      await alice.post<McpServer>('/rest/v1/mcp-servers', {
        name: 'OAuth server',
        url: mcp.url,
        auth: 'oauth',
      }),
    );
    expect(created.status).toBe(201);
    server = created.body;
    expect(server).toMatchObject({
      auth: 'oauth',
      status: 'error',
      token_hint: 'OAuth',
      last_error: { code: 'mcp:authorization_required' },
      tools: [],
    });
    expect(server.last_error!.message).toMatch(/^[A-Z]/);
    // Discovery and dynamic registration went to the server, through the guard.
    const paths = mcp.received.map((each) => each.path);
    expect(paths).toContain('/.well-known/oauth-protected-resource/mcp');
    expect(paths).toContain('/.well-known/oauth-authorization-server');
    expect(paths).toContain('/register');

    const callback = await authorize(server.authorize_url!);

    // Bob cannot finish Alice's sign-in: the server is not his.
    const stolen = await bob.request('GET', callback);
    expect(refusalOf(stolen)).toBe('mcp:not_found');
    const anonymous = await t.client().request('GET', callback);
    expect(anonymous.status).toBe(401);

    const done = await alice.request('GET', callback);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(`/tools?mcp_connected=${server.id}`);

    // The state is single use.
    const again = await alice.request('GET', callback);
    expect(refusalOf(again)).toBe('mcp:oauth_state_invalid');

    const after = await getServer(alice, server.id);
    expect(after.body).toMatchObject({
      status: 'ok',
      last_error: null,
      authorize_url: null,
      transport: 'streamable-http',
    });
    expect(after.body.token_hint).toMatch(/^OAuth, signed in until /);
    expect(after.body.tools.map((tool) => tool.name)).toEqual(['add', 'echo']);
    server = after.body;
  });

  it('calls a tool with the access token, and refreshes it when it expires', async () => {
    const add = toolNamed(server, 'add');
    const path = `/rest/v1/mcp-servers/${server.id}/tools/${add.id}`;
    expect(record(await alice.patch(path, { enabled: true })).status).toBe(200);
    const res = record(
      await alice.post<{ output: unknown }>(`${path}/call`, { input: { a: 2, b: 5 } }),
    );
    expect(res.status).toBe(200);
    expect(res.body.output).toBe('7');
    expect(mcp.received.some((each) => each.authorization?.startsWith('Bearer at-'))).toBe(true);

    provider.expireAccessTokens();
    const refreshed = record(
      await alice.post<{ output: unknown }>(`${path}/call`, { input: { a: 1, b: 1 } }),
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.output).toBe('2');
  });

  it('asks for a new sign-in when the refresh is refused', async () => {
    provider.expireAccessTokens();
    provider.revokeRefreshTokens();
    const res = record(await alice.post(`/rest/v1/mcp-servers/${server.id}/sync`));
    expect(res.status).toBe(409);
    expect((res.body as { code: string }).code).toBe('mcp:authorization_required');
    const after = await getServer(alice, server.id);
    expect(after.body).toMatchObject({
      status: 'error',
      last_error: { code: 'mcp:authorization_required' },
    });
    expect(after.body.authorize_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    // Its tools are kept meanwhile.
    expect(after.body.tools.map((tool) => tool.name)).toEqual(['add', 'echo']);
  });

  it('refuses an expired state', async () => {
    const current = await getServer(alice, server.id);
    const callback = await authorize(current.body.authorize_url!);
    const repo = new McpRepository(t.db, alice.id, t.deps.box);
    const row = (await repo.getServer(server.id))!;
    const state = repo.openOAuth(row);
    await repo.saveOAuth(server.id, {
      ...state,
      pending: { ...state.pending!, expires_at: Date.now() - 1 },
    });
    const res = await alice.request('GET', callback);
    expect(refusalOf(res)).toBe('mcp:oauth_state_invalid');

    // A fresh sign-in still works.
    const retry = record(await alice.post<McpServer>(`/rest/v1/mcp-servers/${server.id}/sync`));
    expect(retry.status).toBe(409);
    const fresh = await getServer(alice, server.id);
    const done = await alice.request('GET', await authorize(fresh.body.authorize_url!));
    expect(done.headers.get('location')).toBe(`/tools?mcp_connected=${server.id}`);
    expect((await getServer(alice, server.id)).body.status).toBe('ok');
  });

  it('becomes an OAuth server by PATCH, and needs a token to become a bearer one', async () => {
    const plain = record(
      await bob.post<McpServer>('/rest/v1/mcp-servers', { name: 'Plain', url: mcp.url }),
    );
    expect(plain.body).toMatchObject({
      status: 'error',
      last_error: { code: 'mcp:connect_failed' },
    });
    const path = `/rest/v1/mcp-servers/${plain.body.id}`;
    const patched = record(await bob.patch<McpServer>(path, { auth: 'oauth' }));
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      auth: 'oauth',
      last_error: { code: 'mcp:authorization_required' },
    });
    expect(patched.body.authorize_url).toMatch(/\/authorize\?/);
    const bearer = record(await bob.patch(path, { auth: 'bearer' }));
    expect(bearer.status).toBe(400);
  });

  it('never shows a token: not in any answer, not in clear in the database', async () => {
    record(await alice.get('/rest/v1/mcp-servers'));
    expect(provider.issued.length).toBeGreaterThan(0);
    const [row] = await t.db.select().from(mcpServers).where(eq(mcpServers.id, server.id));
    const stored = JSON.stringify(row);
    for (const token of provider.issued) {
      for (const answer of answers) expect(answer).not.toContain(token);
      expect(stored).not.toContain(token);
    }
    expect(stored).not.toContain('code_verifier');
    expect(stored).not.toContain('client_id');
  });
});
