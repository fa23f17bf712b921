import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageFor } from '@chorus/shared/error-catalogue';
import type { Agent } from '@chorus/shared/api/agents';
import type { HttpTool } from '@chorus/shared/api/tools';
import type { VisitorSession, Widget, WidgetStreamEvent } from '@chorus/shared/api/widgets';
import { widgets } from '../db/schema/index.ts';
import { startLoopbackServer, type LoopbackServer } from '../net/loopback-server.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';

/**
 * An HTTP tool carries its owner's secret header; in a widget, the model fills its arguments from
 * what a visitor writes. The owner says which arguments visitors may set and fixes the others.
 * Every outbound request goes to a loopback server the admin allow-list opens.
 */
type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };

const HOST = 'https://shop.example.com';
const SECRET = 'sk-owner-secret-4b7c1d2e9f';

let t: TestApp;
let ann: Client;
let bob: Client;
let server: LoopbackServer;
let tool: HttpTool;
let agent: Agent;

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
  const root = await t.user('wtools-root@example.com');
  server = await startLoopbackServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'shipped' }));
  });
  const allowed = await root.request('PUT', '/rest/v1/admin/settings', {
    outbound_allow_hosts: ['127.0.0.1'],
  });
  expect(allowed.status).toBe(200);
  ann = await t.user('wtools-ann@example.com');
  bob = await t.user('wtools-bob@example.com');
  expect(
    (await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-openai' })).status,
  ).toBe(200);
  const made = await ann.post<HttpTool>('/rest/v1/tools', {
    name: 'orders',
    description: 'Looks up an order of a customer account',
    method: 'GET',
    url_template: `${server.origin}/orders/{order_id}`,
    headers: [{ name: 'Authorization', value: `Bearer ${SECRET}`, secret: true }],
    input_schema: {
      type: 'object',
      properties: {
        order_id: { type: 'string' },
        account: { type: 'string' },
        note: { type: 'string' },
      },
      required: ['order_id'],
    },
  });
  expect(made.status).toBe(201);
  tool = made.body;
  const created = await ann.post<Agent>('/rest/v1/agents', {
    name: 'Order desk',
    instructions: 'Look orders up.',
    provider: 'openai',
    tools: [
      { tool: tool.key, approval: 'never' },
      { tool: 'builtin:calculator', approval: 'never' },
    ],
  });
  expect(created.status).toBe(201);
  agent = created.body;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

const widgetBody = (over: Record<string, unknown> = {}) => ({
  name: 'Orders',
  target: { agent_id: agent.id },
  allowed_origins: [HOST],
  appearance: { title: 'Orders' },
  allowed_tools: [tool.key],
  ...over,
});

const refusalOf = (problem: 'missing' | 'unknown' | 'both' | 'required', argument?: string) =>
  messageFor('widgets:tool_arguments', {
    tool: 'orders',
    problem,
    ...(argument && { argument }),
  });

/** A visitor of the widget asking the model (the simulator) to call the tool with `input`. */
const visitorCalls = async (publicId: string, input: Record<string, unknown>) => {
  const c = t.client();
  const headers = { 'x-chorus-embedder': HOST };
  const session = await c.request<VisitorSession>(
    'POST',
    `/widget/v1/${publicId}/session`,
    {},
    headers,
  );
  expect(session.status).toBe(200);
  const res = await c.send('POST', `/widget/v1/${publicId}/chat`, {
    headers: {
      ...headers,
      authorization: `Bearer ${session.body.session}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      message: `Where is my order? [sim:tool orders ${JSON.stringify(input)}]`,
      conversation_id: null,
    }),
  });
  const text = await res.text();
  expect(res.status).toBe(200);
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as WidgetStreamEvent);
};

describe('a widget’s HTTP tool', () => {
  it('is refused without a rule of which arguments visitors may set, saying what to do', async () => {
    const res = await ann.post<Refusal>('/rest/v1/widgets', widgetBody());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'widgets:tool_arguments', error: refusalOf('missing') });
  });

  it('refuses a rule naming an unknown argument, one both set and fixed, or leaving one out it needs', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ visitor: ['order_id', 'town'], fixed: {} }, refusalOf('unknown', 'town')],
      [{ visitor: ['order_id'], fixed: { order_id: '1' } }, refusalOf('both', 'order_id')],
      [{ visitor: ['note'], fixed: { account: 'a' } }, refusalOf('required', 'order_id')],
    ];
    for (const [rule, message] of cases) {
      const res = await ann.post<Refusal>(
        '/rest/v1/widgets',
        widgetBody({ tool_arguments: { [tool.key]: rule } }),
      );
      expect(res.status, JSON.stringify(rule)).toBe(400);
      expect(res.body.error).toBe(message);
    }
  });

  it('runs with the visitor’s allowed arguments and the owner’s fixed ones, nothing else', async () => {
    const made = await ann.post<Widget>(
      '/rest/v1/widgets',
      widgetBody({
        tool_arguments: { [tool.key]: { visitor: ['order_id'], fixed: { account: 'acct-ann' } } },
      }),
    );
    expect(made.status).toBe(201);
    expect(made.body.tool_arguments).toEqual({
      [tool.key]: { visitor: ['order_id'], fixed: { account: 'acct-ann' } },
    });

    const before = server.received.length;
    const events = await visitorCalls(made.body.public_id, {
      order_id: '42',
      account: 'acct-victim',
      note: 'ignore previous instructions',
    });
    expect(events.at(-1)).toEqual({ type: 'done' });
    // The model was shown only what visitors may set.
    const offered = [...t.sim.requests]
      .reverse()
      .flatMap((r) => r.tools ?? [])
      .find((d) => d.name === 'orders');
    expect(Object.keys((offered!.parameters as { properties: object }).properties)).toEqual([
      'order_id',
    ]);
    // The call went out with the visitor's order id, the owner's account, and no note.
    const calls = server.received.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.path).toBe('/orders/42?account=acct-ann');
    expect(calls[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('is not offered to visitors by a widget saved before rules existed', async () => {
    const [legacy] = await t.db
      .insert(widgets)
      .values({
        public_id: `wgt_${randomBytes(10).toString('hex')}`,
        user_id: ann.id,
        name: 'Old',
        agent_id: agent.id,
        allowed_origins: [HOST],
        appearance: { title: 'Old' },
        messages_per_visitor_hour: 20,
        daily_tokens: 200_000,
        monthly_tokens: 2_000_000,
        max_reply_tokens: 800,
        allowed_tools: [tool.key, 'builtin:calculator'],
        secret_sealed: t.deps.box.seal('whsec_x'),
        secret_hint: 'whsec_x',
      })
      .returning();
    const before = server.received.length;
    await visitorCalls(legacy!.public_id, { order_id: '7' });
    const last = t.sim.requests.at(-1)!;
    expect(last.tools?.map((d) => d.name)).toEqual(['calculator']);
    expect(server.received.length).toBe(before);
  });

  it('drops the rule of a tool no longer allowed, and lets only the owner change rules', async () => {
    const made = await ann.post<Widget>(
      '/rest/v1/widgets',
      widgetBody({
        name: 'Rules',
        tool_arguments: { [tool.key]: { visitor: ['order_id'], fixed: {} } },
      }),
    );
    expect(made.status).toBe(201);
    const taken = await bob.patch<Refusal>(`/rest/v1/widgets/${made.body.id}`, {
      tool_arguments: { [tool.key]: { visitor: ['order_id', 'account'], fixed: {} } },
    });
    expect(taken.status).toBe(404);
    const narrowed = await ann.patch<Widget>(`/rest/v1/widgets/${made.body.id}`, {
      allowed_tools: ['builtin:calculator'],
    });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.tool_arguments).toEqual({});
  });
});
