import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, StoredToolCall } from '@chorus/shared/api/agents';
import type { Conversation, MessagePage } from '@chorus/shared/api/conversations';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { partsOf, textOf, type StreamPart } from '../../../test/streams.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };
type ToolPart = StreamPart & {
  toolCallId?: string;
  toolName?: string;
  approvalId?: string;
  output?: unknown;
};

let t: TestApp;
let ann: Client;
let bob: Client;
let helper: Agent;

const withKey = async (email: string) => {
  const u = await t.user(email);
  const res = await u.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-openai' });
  expect(res.status).toBe(200);
  return u;
};

const post = async (who: Client, path: string, body: Record<string, unknown>) => {
  const res = await who.send('POST', path, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    parts: (res.ok ? partsOf(text) : []) as ToolPart[],
    json: res.ok ? undefined : (JSON.parse(text) as Refusal),
  };
};

const chat = (who: Client, conversationId: string, text: string, extra = {}) =>
  post(who, '/functions/v1/chat', {
    conversation_id: conversationId,
    provider: 'openai',
    text,
    ...extra,
  });

const latestReply = async (who: Client, conversationId: string) => {
  const page = await who.get<MessagePage>(
    `/rest/v1/conversations/${conversationId}/messages/latest`,
  );
  return page.body.messages.at(-1)!;
};

const conversation = async (who: Client) =>
  (await who.post<Conversation>('/rest/v1/conversations', { title: 'Agent run' })).body;

const callsOf = (calls: StoredToolCall[] | undefined) =>
  Object.fromEntries((calls ?? []).map((c) => [c.name, c]));

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
  ann = await withKey('agents-ann@example.com');
  bob = await withKey('agents-bob@example.com');
  const res = await ann.post<Agent>('/rest/v1/agents', {
    name: 'Math Helper',
    instructions: 'Use your tools to answer.',
    provider: 'openai',
    tools: [
      { tool: 'builtin:calculator', approval: 'always' },
      { tool: 'builtin:current_datetime', approval: 'never' },
      { tool: 'builtin:web_fetch', approval: 'once' },
    ],
  });
  expect(res.status).toBe(201);
  helper = res.body;
});
afterAll(() => t.close());

describe('agent runs', () => {
  it('runs a tool that needs no approval and pauses on one that does, with both stored', async () => {
    const conv = await conversation(ann);
    const res = await chat(
      ann,
      conv.id,
      '@math-helper What is 6*7, and the time? [sim:tool calculator {"expression":"6*7"}] [sim:tool current_datetime {"time_zone":"UTC"}]',
    );
    expect(res.status).toBe(200);
    const request = t.sim.requests.at(-1)!.body as {
      tools: { name?: string; function?: { name: string } }[];
    };
    expect(request.tools.map((tool) => tool.name ?? tool.function?.name).sort()).toEqual([
      'calculator',
      'current_datetime',
      'web_fetch',
    ]);
    const approval = res.parts.find((p) => p.type === 'tool-approval-request');
    expect(approval?.approvalId).toBeTruthy();
    expect(res.parts.some((p) => p.type === 'tool-output-available')).toBe(true);
    const start = res.parts.find((p) => p.type === 'start');
    expect(start?.messageMetadata).toMatchObject({ agent_name: 'Math Helper' });

    // What a reload shows: the calls, the one waiting with its exact arguments, the paused run.
    const reply = await latestReply(ann, conv.id);
    const calls = callsOf(reply.tool_calls);
    expect(calls.calculator).toMatchObject({
      state: 'awaiting-approval',
      input: { expression: '6*7' },
      approval_id: approval!.approvalId,
    });
    expect(calls.current_datetime).toMatchObject({ state: 'done', error: null });
    expect(calls.current_datetime!.duration_ms).toEqual(expect.any(Number));
    expect(reply.agent_run).toMatchObject({
      agent_id: helper.id,
      agent_name: 'Math Helper',
      status: 'awaiting_approval',
    });

    // Approved, it runs, and the model goes on with its result.
    const runId = reply.agent_run!.id;
    const go = await post(ann, `/functions/v1/agent-runs/${runId}/approvals`, {
      decisions: [{ approval_id: approval!.approvalId, approved: true }],
    });
    expect(go.status).toBe(200);
    expect(go.parts.find((p) => p.type === 'tool-output-available')?.output).toMatchObject({
      result: '42',
    });
    expect(textOf(go.parts)).toContain('Tool calculator returned');
    const done = await latestReply(ann, conv.id);
    expect(done.id).toBe(reply.id);
    expect(done.status).toBe('complete');
    expect(done.content).toContain('Tool calculator returned');
    expect(callsOf(done.tool_calls).calculator).toMatchObject({ state: 'done', approval_id: null });
    expect(done.agent_run?.status).toBe('complete');

    // The pause was answered: a second answer (another tab) is refused.
    const again = await post(ann, `/functions/v1/agent-runs/${runId}/approvals`, {
      decisions: [{ approval_id: approval!.approvalId, approved: true }],
    });
    expect(again.status).toBe(409);
    expect(again.json?.code).toBe('agents:run_not_waiting');
  });

  it('sends a refusal back to the model as the call’s result', async () => {
    const conv = await conversation(ann);
    const res = await chat(
      ann,
      conv.id,
      'Two sums [sim:tool calculator {"expression":"1+1"}] [sim:tool calculator {"expression":"2+2"}]',
      { agent_id: helper.id },
    );
    const approvals = res.parts.filter((p) => p.type === 'tool-approval-request');
    expect(approvals).toHaveLength(2);
    const reply = await latestReply(ann, conv.id);
    const go = await post(ann, `/functions/v1/agent-runs/${reply.agent_run!.id}/approvals`, {
      decisions: [
        { approval_id: approvals[0]!.approvalId, approved: true },
        { approval_id: approvals[1]!.approvalId, approved: false, reason: 'Not this one' },
      ],
    });
    expect(go.status).toBe(200);
    expect(go.parts.some((p) => p.type === 'tool-output-denied')).toBe(true);
    // The model was told: its next request carries the refusal as the call's result.
    const last = JSON.stringify(t.sim.requests.at(-1)!.body);
    expect(last).toContain('Not this one');
    const done = await latestReply(ann, conv.id);
    expect(done.tool_calls!.map((c) => c.state)).toEqual(['done', 'denied']);
  });

  it('asks once per conversation for a tool with that policy', async () => {
    const conv = await conversation(ann);
    const first = await chat(
      ann,
      conv.id,
      '@math-helper read [sim:tool web_fetch {"url":"http://127.0.0.1:9/"}]',
    );
    const approval = first.parts.find((p) => p.type === 'tool-approval-request');
    expect(approval).toBeDefined();
    const reply = await latestReply(ann, conv.id);
    const go = await post(ann, `/functions/v1/agent-runs/${reply.agent_run!.id}/approvals`, {
      decisions: [{ approval_id: approval!.approvalId, approved: true }],
    });
    expect(go.status).toBe(200);
    // The fetch itself is refused by the outbound check: a tool error the model reads.
    const fetched = callsOf((await latestReply(ann, conv.id)).tool_calls).web_fetch;
    expect(JSON.stringify(fetched?.output)).toMatch(/private or local/i);
    const second = await chat(
      ann,
      conv.id,
      '@math-helper again [sim:tool web_fetch {"url":"http://127.0.0.1:9/"}]',
    );
    expect(second.parts.some((p) => p.type === 'tool-approval-request')).toBe(false);
    expect(second.parts.some((p) => p.type === 'tool-output-available')).toBe(true);
  });

  it('covers only calls of the same shape with a once approval: another site asks again', async () => {
    const conv = await conversation(ann);
    const first = await chat(
      ann,
      conv.id,
      '@math-helper read [sim:tool web_fetch {"url":"http://127.0.0.1:9/a"}]',
    );
    const approval = first.parts.find((p) => p.type === 'tool-approval-request');
    expect(approval).toBeDefined();
    // The person is told, beside Approve, what their yes covers: live and after a reload.
    const waiting = callsOf((await latestReply(ann, conv.id)).tool_calls).web_fetch;
    expect(waiting).toMatchObject({ state: 'awaiting-approval' });
    expect(waiting!.approval_scope).toMatch(/same site; another site asks again/);
    const start = first.parts.find((p) => p.type === 'start');
    expect(start?.messageMetadata).toMatchObject({
      approval_scopes: { web_fetch: waiting!.approval_scope },
    });
    const reply = await latestReply(ann, conv.id);
    const go = await post(ann, `/functions/v1/agent-runs/${reply.agent_run!.id}/approvals`, {
      decisions: [{ approval_id: approval!.approvalId, approved: true }],
    });
    expect(go.status).toBe(200);

    // Another page of the same site: covered.
    const samesite = await chat(
      ann,
      conv.id,
      '@math-helper more [sim:tool web_fetch {"url":"http://127.0.0.1:9/b?page=2"}]',
    );
    expect(samesite.parts.some((p) => p.type === 'tool-approval-request')).toBe(false);
    // Another host, or the same host by another scheme: asked again.
    for (const input of [{ url: 'http://127.0.0.2:9/a' }, { url: 'https://127.0.0.1:9/a' }]) {
      const other = await chat(
        ann,
        conv.id,
        `@math-helper other [sim:tool web_fetch ${JSON.stringify(input)}]`,
      );
      expect(
        other.parts.some((p) => p.type === 'tool-approval-request'),
        JSON.stringify(input),
      ).toBe(true);
      // Left waiting: refused, so the next turn starts clean.
      const paused = await latestReply(ann, conv.id);
      const refusal = other.parts.find((p) => p.type === 'tool-approval-request')!;
      await post(ann, `/functions/v1/agent-runs/${paused.agent_run!.id}/approvals`, {
        decisions: [{ approval_id: refusal.approvalId, approved: false }],
      });
    }
    // And an approval in one conversation covers nothing in another.
    const elsewhere = await chat(
      ann,
      (await conversation(ann)).id,
      '@math-helper read [sim:tool web_fetch {"url":"http://127.0.0.1:9/a"}]',
    );
    expect(elsewhere.parts.some((p) => p.type === 'tool-approval-request')).toBe(true);
  });

  it('stops at the agent’s step limit', async () => {
    const oneStep = await ann.post<Agent>('/rest/v1/agents', {
      name: 'One Step',
      provider: 'openai',
      max_steps: 1,
      tools: [{ tool: 'builtin:current_datetime', approval: 'never' }],
    });
    const conv = await conversation(ann);
    const asked = t.sim.requests.length;
    const res = await chat(ann, conv.id, 'time [sim:tool current_datetime {"time_zone":"UTC"}]', {
      agent_id: oneStep.body.id,
    });
    expect(res.status).toBe(200);
    expect(t.sim.requests.length - asked).toBe(1);
    expect((await latestReply(ann, conv.id)).agent_run?.status).toBe('complete');
  });

  it('treats an @handle that names no agent as plain text', async () => {
    const conv = await conversation(ann);
    const res = await chat(ann, conv.id, '@nobody hello');
    expect(res.status).toBe(200);
    const reply = await latestReply(ann, conv.id);
    expect(reply.agent_run ?? null).toBeNull();
    expect(reply.tool_calls).toBeUndefined();
  });

  it('lets no one else run the agent or answer its pauses', async () => {
    const conv = await conversation(ann);
    const res = await chat(ann, conv.id, '@math-helper [sim:tool calculator {"expression":"3*3"}]');
    const approval = res.parts.find((p) => p.type === 'tool-approval-request')!;
    const runId = (await latestReply(ann, conv.id)).agent_run!.id;

    const answer = await post(bob, `/functions/v1/agent-runs/${runId}/approvals`, {
      decisions: [{ approval_id: approval.approvalId, approved: true }],
    });
    expect(answer.status).toBe(404);
    expect(answer.json?.code).toBe('agents:run_not_found');
    const bobConv = await conversation(bob);
    const asked = t.sim.requests.length;
    const byId = await chat(bob, bobConv.id, 'hi', { agent_id: helper.id });
    expect(byId.status).toBe(404);
    expect(byId.json?.code).toBe('agents:not_found');
    // Bob's @math-helper is no agent of his: plain text, no tools offered.
    const byHandle = await chat(
      bob,
      bobConv.id,
      '@math-helper [sim:tool calculator {"expression":"1"}]',
    );
    expect(byHandle.status).toBe(200);
    expect(t.sim.requests.length - asked).toBe(1);
    expect((t.sim.requests.at(-1)!.body as { tools?: unknown }).tools).toBeUndefined();
    // Ann's pause is still hers to answer.
    expect((await latestReply(ann, conv.id)).agent_run?.status).toBe('awaiting_approval');
  });

  it('does not call an approved tool the agent lost, nor go on with another provider', async () => {
    const made = await ann.post<Agent>('/rest/v1/agents', {
      name: 'Changing Helper',
      provider: 'openai',
      tools: [{ tool: 'builtin:calculator', approval: 'always' }],
    });
    expect(made.status).toBe(201);
    const pause = async () => {
      const conv = await conversation(ann);
      const res = await chat(
        ann,
        conv.id,
        '@changing-helper 2+2? [sim:tool calculator {"expression":"2+2"}]',
      );
      const approval = res.parts.find((p) => p.type === 'tool-approval-request')!;
      const reply = await latestReply(ann, conv.id);
      return { conv, approval, runId: reply.agent_run!.id };
    };

    // The tool was taken from the agent while the run waited: approved, it is still not called.
    const first = await pause();
    const patched = await ann.request('PATCH', `/rest/v1/agents/${made.body.id}`, { tools: [] });
    expect(patched.status).toBe(200);
    const go = await post(ann, `/functions/v1/agent-runs/${first.runId}/approvals`, {
      decisions: [{ approval_id: first.approval.approvalId, approved: true }],
    });
    expect(go.status).toBe(200);
    expect(go.parts.some((p) => p.type === 'tool-output-available')).toBe(false);
    const done = await latestReply(ann, first.conv.id);
    expect(callsOf(done.tool_calls).calculator).toMatchObject({ state: 'denied' });

    // The agent moved to another provider while the run waited: a typed 409, nothing sent.
    await ann.request('PATCH', `/rest/v1/agents/${made.body.id}`, {
      tools: [{ tool: 'builtin:calculator', approval: 'always' }],
    });
    const second = await pause();
    const moved = await ann.request('PATCH', `/rest/v1/agents/${made.body.id}`, {
      provider: 'anthropic',
    });
    expect(moved.status).toBe(200);
    const refused = await post(ann, `/functions/v1/agent-runs/${second.runId}/approvals`, {
      decisions: [{ approval_id: second.approval.approvalId, approved: true }],
    });
    expect(refused.status).toBe(409);
    expect(refused.json?.code).toBe('agents:run_not_waiting');
    expect((await latestReply(ann, second.conv.id)).agent_run?.status).toBe('awaiting_approval');
  });

  it('refuses bad approvals with typed 4xx errors', async () => {
    for (const [id, body, status, code] of [
      [
        'not-a-uuid',
        { decisions: [{ approval_id: 'x', approved: true }] },
        404,
        'agents:run_not_found',
      ],
      [
        crypto.randomUUID(),
        { decisions: [{ approval_id: 'x', approved: true }] },
        404,
        'agents:run_not_found',
      ],
      [crypto.randomUUID(), { decisions: [] }, 400, undefined],
      [crypto.randomUUID(), { decisions: 'yes' }, 400, undefined],
    ] as [string, unknown, number, string | undefined][]) {
      const res = await post(ann, `/functions/v1/agent-runs/${id}/approvals`, body as never);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (code) expect(res.json?.code).toBe(code);
    }
  });
});
