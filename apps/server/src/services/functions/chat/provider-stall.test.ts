import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Conversation, Message } from '@chorus/shared/api/conversations';
import { chatMessages } from '@chorus/shared/messages';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../../test/harness.ts';
import { readParts, textOf, waitFor } from '../../../test/streams.ts';

// A provider that goes quiet is cut after PROVIDER_IDLE_TIMEOUT_MS (here its least, 1 s), before
// its response, before its first token and after it: the stream ends with a clear error, what
// arrived is kept, and the row is never left `streaming`. Without the limit each of these holds
// the stream open until the test's own timeout.

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ providerSim: true, env: { PROVIDER_IDLE_TIMEOUT_MS: '1000' } });
});
afterAll(async () => {
  await t.close();
});

const chatAs = async (email: string, apiKey = 'sk-stall-0001') => {
  const u = await t.user(email);
  await u.request('PUT', '/rest/v1/api-keys/openai', { api_key: apiKey });
  const conv = (await u.post<Conversation>('/rest/v1/conversations', { title: 'Stall' })).body;
  const send = (text: string) =>
    t.app.request('/functions/v1/chat', {
      method: 'POST',
      headers: {
        origin: TEST_APP_URL,
        'content-type': 'application/json',
        'x-forwarded-for': u.ip,
        cookie: [...u.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: JSON.stringify({ conversation_id: conv.id, provider: 'openai', text }),
    });
  const history = async () =>
    (await u.get<Message[]>(`/rest/v1/conversations/${conv.id}/messages`)).body;
  return { send, history };
};

it.each([
  ['after its first token', '[sim:hang]', 'interrupted'],
  ['after its headers, before any token', '[sim:hang 0]', 'error'],
] as const)(
  'cuts a provider that stops sending %s with "stopped responding"',
  async (_when, directive, status) => {
    const { send, history } = await chatAs(`stall-${status}@example.com`);
    const parts = await readParts(await send(`Say something ${directive}`));
    expect(parts.find((p) => p.type === 'error')?.errorText).toBe(
      chatMessages.providerStoppedResponding('OpenAI'),
    );
    await waitFor(async () => (await history()).at(-1)?.status === status);
    const reply = (await history()).at(-1)!;
    expect(reply.content).toBe(textOf(parts));
    if (status === 'interrupted') expect(reply.content).toBe('Hello');
  },
  15_000,
);

it('cuts a provider that accepts the request and never answers it', async () => {
  // The simulator holds a `slow` key's answer back 20 s before sending any header.
  const { send, history } = await chatAs('stall-headers@example.com', 'sk-slow-stall-0001');
  const parts = await readParts(await send('Anyone there?'));
  expect(parts.find((p) => p.type === 'error')?.errorText).toBe(
    chatMessages.providerStoppedResponding('OpenAI'),
  );
  await waitFor(async () => (await history()).at(-1)?.status === 'error');
}, 15_000);
