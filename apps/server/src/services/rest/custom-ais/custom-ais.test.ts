import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Message, MessagePage } from '@chorus/shared/api/conversations';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import type { KnowledgeBase } from '@chorus/shared/api/knowledge';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };

let t: TestApp;
let ann: Client;
let bob: Client;
let pirate: CustomAi;

const withKeys = async (email: string) => {
  const u = await t.user(email);
  for (const provider of ['openai', 'anthropic']) {
    const res = await u.request('PUT', `/rest/v1/api-keys/${provider}`, {
      api_key: `sk-${provider}`,
    });
    expect(res.status).toBe(200);
  }
  return u;
};

const chat = async (who: Client, body: Record<string, unknown>) => {
  const res = await who.send('POST', '/functions/v1/chat', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ provider: 'openai', ...body }),
  });
  return { status: res.status, text: await res.text() };
};

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
  ann = await withKeys('cai-ann@example.com');
  bob = await withKeys('cai-bob@example.com');
  const res = await ann.post<CustomAi>('/rest/v1/custom-ais', {
    name: '  Pirate  ',
    avatar: '🏴‍☠️',
    description: 'Talks like a pirate',
    system_prompt: 'Answer as a pirate would. Say arr.',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    parameters: { temperature: 0.3, top_p: null, max_tokens: 321 },
    starters: ['Where is the treasure?', 'Tell me about ships'],
  });
  expect(res.status).toBe(201);
  pirate = res.body;
});
afterAll(() => t.close());

describe('custom AIs', () => {
  it('saves a persona with its fields trimmed and its parameters', async () => {
    expect(pirate).toMatchObject({
      name: 'Pirate',
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      parameters: { temperature: 0.3, top_p: null, max_tokens: 321 },
      starters: ['Where is the treasure?', 'Tell me about ships'],
      knowledge_base_ids: [],
    });
    const list = await ann.get<{ custom_ais: CustomAi[] }>('/rest/v1/custom-ais');
    expect(list.body.custom_ais.map((c) => c.id)).toEqual([pirate.id]);
    const changed = await ann.patch<CustomAi>(`/rest/v1/custom-ais/${pirate.id}`, {
      description: 'Arr',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.description).toBe('Arr');
    expect(changed.body.system_prompt).toBe('Answer as a pirate would. Say arr.');
  });

  it('refuses bad input with typed 4xx errors', async () => {
    const cases: [unknown, number][] = [
      [{}, 400],
      [{ name: '', provider: 'openai' }, 400],
      [{ name: 'X', provider: 'nobody' }, 400],
      [{ name: 'X', provider: 'openai', parameters: { temperature: 9 } }, 400],
      [{ name: 'X', provider: 'openai', starters: Array(7).fill('hi') }, 400],
      [{ name: 'nul\u0000', provider: 'openai' }, 400],
      [{ name: 'X', provider: 'openai', knowledge_base_ids: ['not-an-id'] }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await ann.post<Refusal>('/rest/v1/custom-ais', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
    expect((await ann.patch<Refusal>(`/rest/v1/custom-ais/${pirate.id}`, {})).status).toBe(400);
  });

  it('answers a chat with its own provider, model, instructions and settings, on the caller’s key', async () => {
    const conv = (await ann.post<Conversation>('/rest/v1/conversations', { title: 'Arr' })).body;
    const set = await ann.patch<Conversation>(`/rest/v1/conversations/${conv.id}`, {
      custom_ai_id: pirate.id,
    });
    expect(set.body.custom_ai_id).toBe(pirate.id);
    const res = await chat(ann, {
      conversation_id: conv.id,
      custom_ai_id: pirate.id,
      text: 'Where is the treasure?',
    });
    expect(res.status).toBe(200);
    const request = t.sim.requests.at(-1)!;
    expect(request.provider).toBe('anthropic');
    expect(request.headers['x-api-key']).toBeDefined();
    const body = request.body as {
      model: string;
      system: unknown;
      temperature: number;
      max_tokens: number;
    };
    expect(body.model).toBe('claude-sonnet-4-5');
    expect(JSON.stringify(body.system)).toContain('Answer as a pirate would');
    expect(body.temperature).toBe(0.3);
    expect(body.max_tokens).toBe(321);
    // A conversation opened without the list still says who it talks to.
    const latest = await ann.get<MessagePage>(`/rest/v1/conversations/${conv.id}/messages/latest`);
    expect(latest.body).toMatchObject({ custom_ai_id: pirate.id, knowledge_base_ids: [] });
    const stored = (await ann.get<Message[]>(`/rest/v1/conversations/${conv.id}/messages`)).body;
    expect(stored.at(-1)).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
  });

  it('lets no one else read, change, delete or talk to it', async () => {
    for (const [method, path, body] of [
      ['GET', `/rest/v1/custom-ais/${pirate.id}`],
      ['PATCH', `/rest/v1/custom-ais/${pirate.id}`, { name: 'Mine' }],
      ['DELETE', `/rest/v1/custom-ais/${pirate.id}`],
    ] as [string, string, unknown?][]) {
      const res = await bob.request<Refusal>(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe('custom_ais:not_found');
    }
    expect(
      (await bob.get<{ custom_ais: CustomAi[] }>('/rest/v1/custom-ais')).body.custom_ais,
    ).toEqual([]);
    const conv = (await bob.post<Conversation>('/rest/v1/conversations', {})).body;
    const asked = t.sim.requests.length;
    const res = await chat(bob, { conversation_id: conv.id, custom_ai_id: pirate.id, text: 'Hi' });
    expect(res.status).toBe(404);
    expect(t.sim.requests.length).toBe(asked);
    const attach = await bob.patch<Refusal>(`/rest/v1/conversations/${conv.id}`, {
      custom_ai_id: pirate.id,
    });
    expect(attach.status).toBe(404);
    // Nor give his persona her knowledge base.
    const base = await ann.post<KnowledgeBase>('/rest/v1/knowledge-bases', { name: 'Ann only' });
    const sneaky = await bob.post<Refusal>('/rest/v1/custom-ais', {
      name: 'Sneaky',
      provider: 'openai',
      knowledge_base_ids: [base.body.id],
    });
    expect(sneaky.status).toBe(404);
    expect(sneaky.body.code).toBe('knowledge:not_found');
  });

  it('leaves its conversations with a plain model when deleted', async () => {
    const temp = (
      await ann.post<CustomAi>('/rest/v1/custom-ais', { name: 'Temp', provider: 'openai' })
    ).body;
    const conv = (await ann.post<Conversation>('/rest/v1/conversations', {})).body;
    await ann.patch(`/rest/v1/conversations/${conv.id}`, { custom_ai_id: temp.id });
    expect((await ann.del(`/rest/v1/custom-ais/${temp.id}`)).status).toBe(204);
    const list = await ann.get<{ conversations: Conversation[] }>('/rest/v1/conversations');
    expect(list.body.conversations.find((c) => c.id === conv.id)!.custom_ai_id).toBeNull();
    expect((await ann.get(`/rest/v1/custom-ais/${temp.id}`)).status).toBe(404);
  });
});
