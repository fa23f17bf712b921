import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSettings } from '@chorus/shared/api/settings';
import type { HttpTool, HttpToolTestResult } from '@chorus/shared/api/tools';
import { toolLimits } from '@chorus/shared/api/tools';
import { adminAuditLogs, httpTools } from '../../../db/schema/index.ts';
import { startLoopbackServer, type LoopbackServer } from '../../../net/loopback-server.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { buildAgentToolset } from '../../../agents/toolset.ts';

// Every outbound request here goes to 127.0.0.1 (ARCHITECTURE §11), which the admin allow-list
// opens for the tests that need it; the loopback server records what reached it.

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };

const SECRET = 'sk-live-0123456789abcdef-TOPSECRET';
const SECRET_2 = 'another-secret-value-9876';

let t: TestApp;
let root: Client;
let ann: Client;
let bob: Client;
let server: LoopbackServer;

beforeAll(async () => {
  t = await startTestApp();
  // The first account is the super admin, who alone sets the allow-list.
  root = await t.user('tools-root@example.com');
  ann = await t.user('tools-ann@example.com');
  bob = await t.user('tools-bob@example.com');
  server = await startLoopbackServer((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      return void res.end();
    }
    if (url.pathname === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end('y'.repeat(toolLimits.resultChars + 500));
    }
    res.writeHead(url.pathname.startsWith('/missing/') ? 404 : 200, {
      'content-type': 'application/json; charset=utf-8',
    });
    // The answer never echoes request headers: those may hold the secret.
    res.end(JSON.stringify({ method: req.method, path: req.url, body }));
  });
});
afterAll(async () => {
  await server.close();
  await t.close();
});

const setAllowList = async (hosts: string[]) => {
  const res = await root.request<AppSettings>('PUT', '/rest/v1/admin/settings', {
    outbound_allow_hosts: hosts,
  });
  expect(res.status).toBe(200);
  expect(res.body.outbound_allow_hosts).toEqual(hosts);
};

const echoTool = (over: Record<string, unknown> = {}) => ({
  name: 'echo',
  description: 'Echoes a path on the local test server',
  method: 'GET',
  url_template: `${server.origin}/items/{item}`,
  headers: [
    { name: 'X-Client', value: 'chorus-test', secret: false },
    { name: 'Authorization', value: `Bearer ${SECRET}`, secret: true },
  ],
  input_schema: {
    type: 'object',
    properties: { item: { type: 'string' }, q: { type: 'string' } },
    required: ['item'],
  },
  ...over,
});

const create = (who: Client, body: Record<string, unknown>) =>
  who.post<HttpTool & Refusal>('/rest/v1/tools', body);

const test = (who: Client, id: string, input: Record<string, unknown>) =>
  who.post<HttpToolTestResult & Refusal>(`/rest/v1/tools/${id}/test`, { input });

const storedRow = async (id: string) =>
  (await t.db.select().from(httpTools).where(eq(httpTools.id, id)))[0]!;

describe('HTTP tools', () => {
  it('saves a tool, reads it back with secret headers as hints only, and stores the secret sealed', async () => {
    const res = await create(ann, echoTool({ name: 'lookup' }));
    expect(res.status).toBe(201);
    const tool = res.body;
    expect(tool).toMatchObject({
      key: `http:${tool.id}`,
      name: 'lookup',
      method: 'GET',
      url_template: `${server.origin}/items/{item}`,
      headers: [
        { name: 'X-Client', value: 'chorus-test', secret: false },
        { name: 'Authorization', value: '…CRET', secret: true },
      ],
    });
    const reads = [
      res,
      await ann.get(`/rest/v1/tools/${tool.id}`),
      await ann.get('/rest/v1/tools'),
      await ann.patch(`/rest/v1/tools/${tool.id}`, { description: 'Changed' }),
    ];
    for (const read of reads) {
      expect(read.status).toBeLessThan(300);
      expect(JSON.stringify(read.body)).not.toContain('TOPSECRET');
      expect(JSON.stringify(read.body)).not.toContain('0123456789abcdef');
    }
    const row = await storedRow(tool.id);
    expect(row.user_id).toBe(ann.id);
    expect(row.secret_headers).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('TOPSECRET');
    expect(row.secret_hints).toEqual([{ name: 'Authorization', hint: '…CRET' }]);
  });

  it('lists, changes and deletes a tool', async () => {
    const made = (await create(ann, echoTool({ name: 'crud', headers: [] }))).body;
    const list = await ann.get<{ tools: HttpTool[] }>('/rest/v1/tools');
    expect(list.body.tools.map((x) => x.name)).toContain('crud');
    const changed = await ann.patch<HttpTool>(`/rest/v1/tools/${made.id}`, {
      name: 'crud_two',
      method: 'POST',
      url_template: `${server.origin}/things/{item}`,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'crud_two',
      method: 'POST',
      description: 'Echoes a path on the local test server',
    });
    expect((await ann.del(`/rest/v1/tools/${made.id}`)).status).toBe(204);
    expect((await ann.get(`/rest/v1/tools/${made.id}`)).status).toBe(404);
    expect((await ann.del(`/rest/v1/tools/${made.id}`)).status).toBe(404);
  });

  it('keeps a stored secret when it is sent back as null, and refuses a new secret without a value', async () => {
    const made = (await create(ann, echoTool({ name: 'keeper' }))).body;
    const kept = await ann.patch<HttpTool>(`/rest/v1/tools/${made.id}`, {
      headers: [
        { name: 'authorization', value: null, secret: true },
        { name: 'X-Other', value: SECRET_2, secret: true },
      ],
    });
    expect(kept.status).toBe(200);
    expect(kept.body.headers).toEqual([
      { name: 'authorization', value: '…CRET', secret: true },
      { name: 'X-Other', value: '…9876', secret: true },
    ]);
    expect(JSON.stringify(kept.body)).not.toContain(SECRET_2);

    const missing = await ann.patch<Refusal>(`/rest/v1/tools/${made.id}`, {
      headers: [{ name: 'X-New-Key', value: null, secret: true }],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('tools:secret_missing');
    expect(missing.body.error).toContain('X-New-Key');
    const fresh = await create(
      ann,
      echoTool({ name: 'fresh', headers: [{ name: 'X-Key', value: null, secret: true }] }),
    );
    expect(fresh.status).toBe(400);
    expect(fresh.body.code).toBe('tools:secret_missing');
    // The stored secrets are unchanged by the refused change.
    expect((await ann.get<HttpTool>(`/rest/v1/tools/${made.id}`)).body.headers).toHaveLength(2);
  });

  it('refuses bad input with typed 4xx errors, never a 500', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{}, 400, 'bad_request:validation'],
      [echoTool({ name: '1bad' }), 400, 'bad_request:validation'],
      [echoTool({ name: 'has space' }), 400, 'bad_request:validation'],
      [echoTool({ method: 'TRACE' }), 400, 'bad_request:validation'],
      [echoTool({ input_schema: { type: 'string' } }), 400, 'bad_request:validation'],
      [echoTool({ url_template: 'ftp://example.com/{item}' }), 400, 'tools:bad_url_template'],
      [echoTool({ url_template: 'not a url' }), 400, 'tools:bad_url_template'],
      [echoTool({ url_template: '{item}/x' }), 400, 'tools:bad_url_template'],
      [echoTool({ url_template: 'https://x.example/{town}' }), 400, 'tools:bad_url_template'],
      [echoTool({ url_template: 'https://x.example/{a-b}' }), 400, 'tools:bad_url_template'],
      [
        echoTool({ headers: [{ name: 'Bad Header', value: 'x', secret: false }] }),
        400,
        'bad_request:validation',
      ],
      [
        echoTool({ headers: [{ name: 'X', value: 'x'.repeat(4_001), secret: false }] }),
        400,
        'bad_request:validation',
      ],
      [echoTool({ name: 'web_fetch' }), 409, 'tools:name_taken'],
    ];
    for (const [body, status, code] of cases) {
      const res = await create(ann, body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
    }
    const first = await create(bob, echoTool({ name: 'dupe', headers: [] }));
    expect(first.status).toBe(201);
    const again = await create(bob, echoTool({ name: 'dupe', headers: [] }));
    expect([again.status, again.body.code]).toEqual([409, 'tools:name_taken']);
    const other = (await create(bob, echoTool({ name: 'other', headers: [] }))).body;
    const renamed = await bob.patch<Refusal>(`/rest/v1/tools/${other.id}`, { name: 'dupe' });
    expect([renamed.status, renamed.body.code]).toEqual([409, 'tools:name_taken']);
    const badPatch = await bob.patch<Refusal>(`/rest/v1/tools/${other.id}`, {
      input_schema: { type: 'object', properties: {} },
    });
    expect([badPatch.status, badPatch.body.code]).toEqual([400, 'tools:bad_url_template']);
    expect((await bob.patch(`/rest/v1/tools/${other.id}`, {})).status).toBe(400);
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      expect((await bob.get<Refusal>(`/rest/v1/tools/${id}`)).body.code).toBe('tools:not_found');
      expect((await bob.patch(`/rest/v1/tools/${id}`, { description: 'x' })).status).toBe(404);
      expect((await bob.del(`/rest/v1/tools/${id}`)).status).toBe(404);
      expect((await test(bob, id, {})).status).toBe(404);
    }
  });

  it('keeps to the number of tools one may have', async () => {
    const carl = await t.user('tools-carl@example.com');
    await t.db.insert(httpTools).values(
      Array.from({ length: toolLimits.perUser }, (_, i) => ({
        user_id: carl.id,
        name: `t${i}`,
        url_template: 'https://api.example.com/',
        input_schema: { type: 'object' },
      })),
    );
    const res = await create(carl, echoTool({ name: 'one_more', headers: [] }));
    expect([res.status, res.body.code]).toEqual([409, 'tools:too_many']);
  });

  it("does not let another user read, change, test or delete one's tool", async () => {
    const mine = (await create(ann, echoTool({ name: 'private_one' }))).body;
    expect((await bob.get(`/rest/v1/tools/${mine.id}`)).status).toBe(404);
    expect((await bob.patch(`/rest/v1/tools/${mine.id}`, { name: 'stolen' })).status).toBe(404);
    expect(
      (
        await bob.patch(`/rest/v1/tools/${mine.id}`, {
          headers: [{ name: 'Authorization', value: null, secret: true }],
        })
      ).status,
    ).toBe(404);
    const before = server.received.length;
    expect((await test(bob, mine.id, { item: 'x' })).status).toBe(404);
    expect(server.received.length).toBe(before);
    expect((await bob.del(`/rest/v1/tools/${mine.id}`)).status).toBe(404);
    const bobs = await bob.get<{ tools: HttpTool[] }>('/rest/v1/tools');
    expect(bobs.body.tools.map((x) => x.id)).not.toContain(mine.id);
    expect((await ann.get<HttpTool>(`/rest/v1/tools/${mine.id}`)).body.name).toBe('private_one');
  });
});

describe('testing an HTTP tool, and the admin allow-list of private hosts', () => {
  let tool: HttpTool;
  beforeAll(async () => {
    tool = (await create(ann, echoTool({ name: 'tester' }))).body;
  });

  it('refuses a loopback address by default, and sends nothing', async () => {
    const before = server.received.length;
    const res = await test(ann, tool.id, { item: 'one' });
    expect(res.status).toBe(200);
    expect(res.body.response).toBeNull();
    expect(res.body.error).toEqual({
      code: 'outbound:refused',
      message: expect.stringContaining('ask an admin to allow this host'),
    });
    expect(res.body.request.url).toBe(`${server.origin}/items/one`);
    expect(JSON.stringify(res.body)).not.toContain('TOPSECRET');
    expect(server.received.length).toBe(before);
  });

  it('keeps the allow-list to super admins, checks each entry and audits the change', async () => {
    for (const who of [ann, bob]) {
      expect((await who.get('/rest/v1/admin/settings')).status).toBe(403);
      const put = await who.request('PUT', '/rest/v1/admin/settings', {
        outbound_allow_hosts: ['127.0.0.1'],
      });
      expect(put.status).toBe(403);
    }
    const bad = await root.request<Refusal>('PUT', '/rest/v1/admin/settings', {
      outbound_allow_hosts: ['10.0.0.0/8', 'http://bad/entry'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('outbound:bad_allow_entry');
    expect(bad.body.error).toContain('"http://bad/entry"');
    expect(
      (await root.get<AppSettings>('/rest/v1/admin/settings')).body.outbound_allow_hosts,
    ).toEqual([]);
    // Still refused: a refused change and a plain user's attempt changed nothing.
    expect((await test(ann, tool.id, { item: 'one' })).body.error?.code).toBe('outbound:refused');

    await setAllowList(['127.0.0.1']);
    const audit = await t.db
      .select()
      .from(adminAuditLogs)
      .where(eq(adminAuditLogs.record_id, 'outbound_allow_hosts'));
    expect(audit.map((a) => [a.admin_id, a.action, a.details])).toEqual([
      [root.id, 'update_setting', { key: 'outbound_allow_hosts', from: [], to: ['127.0.0.1'] }],
    ]);
  });

  it('calls an allowed host with the input, sending the secret but showing only its hint', async () => {
    const before = server.received.length;
    const res = await test(ann, tool.id, { item: 'a b/c', q: 'x&y' });
    expect(res.status).toBe(200);
    expect(res.body.error).toBeNull();
    expect(res.body.request).toEqual({
      method: 'GET',
      url: `${server.origin}/items/a%20b%2Fc?q=x%26y`,
      headers: [
        { name: 'X-Client', value: 'chorus-test', secret: false },
        { name: 'Authorization', value: '…CRET', secret: true },
        { name: 'Accept', value: expect.any(String), secret: false },
      ],
      body: null,
    });
    expect(res.body.response).toMatchObject({ status: 200, truncated: false });
    expect(JSON.parse(res.body.response!.body)).toEqual({
      method: 'GET',
      path: '/items/a%20b%2Fc?q=x%26y',
      body: '',
    });
    expect(res.body.response!.headers['content-type']).toContain('application/json');
    expect(JSON.stringify(res.body)).not.toContain('TOPSECRET');
    const arrived = server.received.slice(before);
    expect(arrived).toHaveLength(1);
    expect(arrived[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(arrived[0]!.headers['x-client']).toBe('chorus-test');
  });

  it('sends the rest of the input as a JSON body, and answers an error status as a response', async () => {
    const post = (
      await create(
        ann,
        echoTool({
          name: 'poster',
          method: 'POST',
          url_template: `${server.origin}/missing/{item}`,
        }),
      )
    ).body;
    const res = await test(ann, post.id, { item: '7', q: 'hello', n: 2 });
    expect(res.body.error).toBeNull();
    expect(res.body.request.body).toBe('{"q":"hello","n":2}');
    expect(res.body.response!.status).toBe(404);
    expect(JSON.parse(res.body.response!.body)).toMatchObject({
      method: 'POST',
      body: '{"q":"hello","n":2}',
    });
  });

  it('cuts a long answer with a marker', async () => {
    const big = (
      await create(
        ann,
        echoTool({ name: 'big', url_template: `${server.origin}/big`, headers: [] }),
      )
    ).body;
    const res = await test(ann, big.id, {});
    expect(res.body.response!.truncated).toBe(true);
    expect(res.body.response!.body).toContain('[… cut here');
  });

  it('refuses a redirect from an allowed host to one that is not allowed', async () => {
    const hop = (
      await create(
        ann,
        echoTool({
          name: 'hopper',
          url_template: `${server.origin}/redirect?to=http%3A%2F%2F127.0.0.2%3A${server.port}%2F`,
          input_schema: { type: 'object', properties: {} },
        }),
      )
    ).body;
    const before = server.received.length;
    const res = await test(ann, hop.id, {});
    expect(res.status).toBe(200);
    expect(res.body.response).toBeNull();
    expect(res.body.error?.code).toBe('outbound:refused');
    expect(res.body.error?.message).toContain('127.0.0.2, reached through a redirect');
    // Only the first hop arrived.
    expect(server.received.slice(before).map((r) => r.path)).toEqual([
      `/redirect?to=http%3A%2F%2F127.0.0.2%3A${server.port}%2F`,
    ]);
  });

  it('answers input the URL cannot take with a typed 400', async () => {
    const missing = await test(ann, tool.id, {});
    expect([missing.status, missing.body.code]).toEqual([400, 'bad_request:validation']);
    expect(missing.body.error).toContain('"item"');
    const notObject = await ann.post<Refusal>(`/rest/v1/tools/${tool.id}/test`, { input: 'x' });
    expect(notObject.status).toBe(400);
  });

  it('refuses loopback again once the admin empties the list', async () => {
    await setAllowList([]);
    expect((await test(ann, tool.id, { item: 'one' })).body.error?.code).toBe('outbound:refused');
  });
});

describe('HTTP tools for a model', () => {
  const callOptions = { toolCallId: 'call-1', messages: [], context: {} };
  /** The tools an agent's run is given for these keys, as the runtime builds them. */
  const toolsFor = async (userId: string, keys: string[], hosts: string[]) =>
    (
      await buildAgentToolset(
        t.deps,
        keys.map((tool) => ({ tool, approval: 'never' as const })),
        {
          userId,
          conversationId: crypto.randomUUID(),
          provider: 'openai',
          model: 'gpt-5',
          knowledgeBaseIds: [],
          allow: { hosts },
          granted: new Set(),
        },
      )
    ).tools;

  it('loads only the user’s own tools by key, named as the model calls them', async () => {
    const mine = (await create(ann, echoTool({ name: 'for_model' }))).body;
    const theirs = (await create(bob, echoTool({ name: 'bobs_tool', headers: [] }))).body;
    const tools = await toolsFor(ann.id, [mine.key, theirs.key], []);
    expect(Object.keys(tools)).toEqual(['for_model']);
  });

  it('answers a refusal as a tool error, and an allowed call as data, secret sent', async () => {
    const tool = (await create(ann, echoTool({ name: 'model_call' }))).body;
    const refused = (await toolsFor(ann.id, [tool.key], [])).model_call!;
    expect(await refused.execute!({ item: 'one' }, callOptions)).toEqual({
      error: expect.stringContaining('Chorus does not fetch private or local addresses'),
    });
    expect(await refused.execute!({}, callOptions)).toEqual({
      error: 'Give a value for "item": the URL needs it.',
    });

    const allowed = (await toolsFor(ann.id, [tool.key], ['127.0.0.1'])).model_call!;
    const before = server.received.length;
    const result = await allowed.execute!({ item: 'two', q: 'z' }, callOptions);
    expect(result).toEqual({
      status: 200,
      content_type: 'application/json; charset=utf-8',
      body: JSON.stringify({ method: 'GET', path: '/items/two?q=z', body: '' }),
      truncated: false,
    });
    expect(server.received.slice(before).map((r) => r.headers.authorization)).toEqual([
      `Bearer ${SECRET}`,
    ]);
  });
});
