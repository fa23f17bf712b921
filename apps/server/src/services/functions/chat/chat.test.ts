import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Message } from '@chorus/shared/api/conversations';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../../test/harness.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    providerSim: true,
  });
});
afterAll(async () => {
  await t.close();
});

type Part = {
  type: string;
  delta?: string;
  errorText?: string;
  messageMetadata?: Record<string, string>;
  url?: string;
};

/** Reads an AI SDK UI message stream (SSE) into its parts. */
const readParts = async (res: Response): Promise<Part[]> => {
  const text = await res.text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)) as Part);
};

const textOf = (parts: Part[]) =>
  parts
    .filter((p) => p.type === 'text-delta')
    .map((p) => p.delta)
    .join('');

const signedInWithKey = async (email: string) => {
  const u = await t.user(email);
  await u.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-test-chat-0001' });
  await u.request('PUT', '/rest/v1/api-keys/perplexity', { api_key: 'pplx-test-chat-0001' });
  const conv = (await u.post<Conversation>('/rest/v1/conversations', { title: 'Chat' })).body;
  const chat = (body: Record<string, unknown>, signal?: AbortSignal) =>
    t.app.request('/functions/v1/chat', {
      method: 'POST',
      signal,
      headers: {
        origin: TEST_APP_URL,
        'content-type': 'application/json',
        'x-forwarded-for': u.ip,
        cookie: [...u.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: JSON.stringify({ conversation_id: conv.id, provider: 'openai', ...body }),
    });
  const history = async () =>
    (await u.get<Message[]>(`/rest/v1/conversations/${conv.id}/messages`)).body;
  return { u, conv, chat, history };
};

const waitFor = async (check: () => Promise<boolean>, ms = 5_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
};

describe('POST /functions/v1/chat', () => {
  it('streams the reply and stores both messages, the user one before the provider is called', async () => {
    const { chat, history } = await signedInWithKey('stream@example.com');
    const res = await chat({ text: 'Tell me about otters' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const parts = await readParts(res);
    const streamed = textOf(parts);
    expect(streamed).toContain('Tell me about otters');
    const start = parts.find((p) => p.type === 'start');
    expect(start?.messageMetadata).toMatchObject({ provider: 'openai', model: 'gpt-5-2025-08-07' });

    await waitFor(async () => (await history()).at(-1)?.status === 'complete');
    const [user, reply] = await history();
    expect(user).toMatchObject({
      role: 'user',
      content: 'Tell me about otters',
      status: 'complete',
    });
    expect(reply).toMatchObject({
      role: 'assistant',
      content: streamed,
      reply_to_id: user!.id,
      provider: 'openai',
    });
    expect(start?.messageMetadata).toMatchObject({
      user_message_id: user!.id,
      assistant_message_id: reply!.id,
    });
    expect(
      t.sim.requests.some((r) => JSON.stringify(r.body).includes('Tell me about otters')),
    ).toBe(true);
  });

  it('sends the earlier turns as context', async () => {
    const { chat } = await signedInWithKey('context@example.com');
    await readParts(await chat({ text: 'first question' }));
    t.sim.requests.length = 0;
    await readParts(await chat({ text: 'second question' }));
    const sent = JSON.stringify(t.sim.requests.at(-1)?.body);
    expect(sent).toContain('first question');
    expect(sent).toContain('second question');
  });

  it('asks for a key when none is available, without storing anything', async () => {
    const u = await t.user('keyless@example.com');
    const conv = (await u.post<Conversation>('/rest/v1/conversations', {})).body;
    const res = await u.post<{ code: string; error: string }>('/functions/v1/chat', {
      conversation_id: conv.id,
      provider: 'anthropic',
      text: 'hello',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('keys:missing');
    expect(res.body.error).toContain('Anthropic');
    expect((await u.get<Message[]>(`/rest/v1/conversations/${conv.id}/messages`)).body).toEqual([]);
  });

  it("refuses another user's conversation with 404", async () => {
    const { conv } = await signedInWithKey('chat-owner@example.com');
    const bob = await t.user('chat-intruder@example.com');
    await bob.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-bob-0001' });
    const res = await bob.post('/functions/v1/chat', {
      conversation_id: conv.id,
      provider: 'openai',
      text: 'hi',
    });
    expect(res.status).toBe(404);
  });

  it('keeps the partial reply as interrupted when the user stops the stream', async () => {
    const { chat, history } = await signedInWithKey('stop@example.com');
    const controller = new AbortController();
    const res = await chat({ text: 'Go on forever [sim:hang]' }, controller.signal);
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('text-delta')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before any text: ${seen}`);
      seen += new TextDecoder().decode(value);
    }
    controller.abort();
    await reader.cancel().catch(() => undefined);

    await waitFor(async () => (await history()).at(-1)?.status === 'interrupted');
    const [user, reply] = await history();
    expect(user!.content).toBe('Go on forever [sim:hang]');
    expect(reply!.content.length).toBeGreaterThan(0);
  });

  it('regenerates the last reply in place', async () => {
    const { chat, history } = await signedInWithKey('regen@example.com');
    await readParts(await chat({ text: 'Answer me [sim:tokens 3]' }));
    await readParts(await chat({ regenerate: true, provider: 'perplexity' }));
    await waitFor(async () => (await history()).at(-1)?.status === 'complete');
    const rows = await history();
    expect(rows.map((m) => [m.role, m.provider])).toEqual([
      ['user', 'openai'],
      ['assistant', 'perplexity'],
    ]);
  });

  it('edit-and-resend replaces the message and everything after it', async () => {
    const { chat, history } = await signedInWithKey('edit@example.com');
    await readParts(await chat({ text: 'one' }));
    await readParts(await chat({ text: 'two' }));
    await waitFor(
      async () => (await history()).length === 4 && (await history()).at(-1)?.status === 'complete',
    );
    const second = (await history())[2]!;
    await readParts(await chat({ text: 'two, better', edit_of: second.id }));
    await waitFor(async () => (await history()).at(-1)?.status === 'complete');
    expect((await history()).map((m) => m.role === 'user' && m.content).filter(Boolean)).toEqual([
      'one',
      'two, better',
    ]);
  });

  it('retries a 429 before the first token twice, then reports it clearly', async () => {
    const { chat, history } = await signedInWithKey('retry@example.com');
    const before = t.sim.requests.length;
    const parts = await readParts(await chat({ text: 'busy [sim:429]' }));
    const calls = t.sim.requests.slice(before).filter((r) => r.provider === 'openai');
    expect(calls).toHaveLength(3);
    expect(parts.find((p) => p.type === 'error')?.errorText).toBe(
      'OpenAI is rate limiting requests right now. Wait a moment and try again.',
    );
    await waitFor(async () => (await history()).at(-1)?.status === 'error');
  }, 30_000);

  it('stores the sources of a web-search provider', async () => {
    const { chat, history } = await signedInWithKey('sources@example.com');
    const parts = await readParts(await chat({ text: 'news?', provider: 'perplexity' }));
    expect(parts.filter((p) => p.type === 'source-url')).toHaveLength(2);
    await waitFor(async () => (await history()).at(-1)?.status === 'complete');
    expect((await history()).at(-1)!.sources).toHaveLength(2);
  });

  it('reports a provider failure clearly and marks the reply as failed', async () => {
    const { chat, history } = await signedInWithKey('failing@example.com');
    const parts = await readParts(await chat({ text: 'break [sim:fail-after 2]' }));
    const error = parts.find((p) => p.type === 'error');
    expect(error?.errorText).toBe(
      'The reply from OpenAI failed. Try again, or switch to another provider.',
    );
    await waitFor(async () => (await history()).at(-1)?.status === 'interrupted');
    expect((await history()).at(-1)!.content.length).toBeGreaterThan(0);
  });

  it.each([
    ['openai', 'sk-all-0001', 'OpenAI'],
    ['anthropic', 'sk-ant-all-0001', 'Anthropic'],
    ['gemini', 'gemini-all-0001', 'Gemini'],
    ['deepseek', 'sk-all-0001', 'DeepSeek'],
    ['mistral', 'mistral-all-0001', 'Mistral'],
    ['perplexity', 'pplx-all-0001', 'Perplexity'],
    ['ollama', null, 'Ollama'],
    ['openrouter', 'sk-or-all-0001', 'OpenRouter'],
  ] as const)('streams and proxies through %s', async (provider, apiKey, label) => {
    const { u, chat, history } = await signedInWithKey(`all-${provider}@example.com`);
    if (apiKey) await u.request('PUT', `/rest/v1/api-keys/${provider}`, { api_key: apiKey });
    const parts = await readParts(await chat({ provider, text: `Ping ${provider}` }));
    expect(textOf(parts)).toContain(`Hello from the ${label} simulator`);
    await waitFor(async () => (await history()).at(-1)?.status === 'complete');
    expect((await history()).at(-1)).toMatchObject({ provider, content: textOf(parts) });

    const proxied = await u.post<{ response: string }>('/functions/v1/ai-api-proxy', {
      provider,
      messages: [{ role: 'user', content: `Proxy ${provider}` }],
    });
    expect(proxied.status).toBe(200);
    expect(proxied.body.response).toContain(`Proxy ${provider}`);
  });

  it('rejects bad input with 400', async () => {
    const { u, conv } = await signedInWithKey('chat-bad@example.com');
    for (const body of [
      { conversation_id: conv.id, provider: 'openai' },
      { conversation_id: conv.id, provider: 'openai', text: '   ' },
      { conversation_id: 'nope', provider: 'openai', text: 'x' },
      { conversation_id: conv.id, provider: 'skynet', text: 'x' },
      { conversation_id: conv.id, provider: 'openai', text: 'x', temperature: 9 },
    ]) {
      expect((await u.post('/functions/v1/chat', body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});
