import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Message, MessagePage } from '@chorus/shared/api/conversations';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../../test/harness.ts';

// Issue 14: answer versions after regenerate, the per-conversation system prompt, failures kept
// with their reason, and a retried send never stored twice.

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
});
afterAll(() => t.close());

type Part = { type: string; delta?: string; errorText?: string };

const readParts = async (res: Response): Promise<Part[]> =>
  (await res.text())
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)) as Part);

const signedIn = async (email: string, conversation: Record<string, unknown> = {}) => {
  const u = await t.user(email);
  await u.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-test-turns-0001' });
  await u.request('PUT', '/rest/v1/api-keys/perplexity', { api_key: 'pplx-test-turns-0001' });
  const conv = (
    await u.post<Conversation>('/rest/v1/conversations', { title: 'Turns', ...conversation })
  ).body;
  const chat = (body: Record<string, unknown>) =>
    t.app.request('/functions/v1/chat', {
      method: 'POST',
      headers: {
        origin: TEST_APP_URL,
        'content-type': 'application/json',
        'x-forwarded-for': u.ip,
        cookie: [...u.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: JSON.stringify({ conversation_id: conv.id, provider: 'openai', ...body }),
    });
  /** The newest page, as the chat opens it; waits until no reply is streaming. */
  const latest = async (): Promise<MessagePage> => {
    for (let i = 0; i < 100; i++) {
      const page = (await u.get<MessagePage>(`/rest/v1/conversations/${conv.id}/messages/latest`))
        .body;
      if (!page.messages) throw new Error(`the newest page failed: ${JSON.stringify(page)}`);
      if (!page.messages.some((m) => m.status === 'streaming')) return page;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('a reply is still streaming');
  };
  return { u, conv, chat, latest };
};

const lastSent = () => JSON.stringify(t.sim.requests.at(-1)?.body ?? {});

describe('answer versions', () => {
  it('keeps earlier answers on regenerate, numbers them, and switches between them', async () => {
    const { u, chat, latest } = await signedIn('versions@example.com');
    await readParts(await chat({ text: 'Name a colour' }));
    const first = (await latest()).messages.at(-1)!;
    expect(first.version).toBeNull();

    // Answered again by another provider, so the versions differ.
    await readParts(await chat({ regenerate: true, provider: 'perplexity' }));
    await readParts(await chat({ regenerate: true, provider: 'perplexity' }));
    const page = await latest();
    // Still one user message and one answer on screen: the current (newest) version.
    expect(page.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const current = page.messages[1]!;
    expect(current.version).toEqual({ index: 3, ids: [first.id, expect.any(String), current.id] });

    // Back to the first answer: it becomes the one shown and sent as context.
    const picked = await u.post<Message>(`/rest/v1/messages/${first.id}/select`, {});
    expect(picked.status).toBe(200);
    expect(picked.body).toMatchObject({ id: first.id, content: first.content });
    expect(picked.body.version).toEqual({ index: 1, ids: current.version!.ids });
    expect((await latest()).messages.map((m) => m.id)).toEqual([page.messages[0]!.id, first.id]);

    t.sim.requests.length = 0;
    await readParts(await chat({ text: 'And another?' }));
    const sent = lastSent();
    expect(first.content).toContain('OpenAI simulator');
    expect(current.content).toContain('Perplexity simulator');
    expect(sent).toContain('OpenAI simulator');
    expect(sent).not.toContain('Perplexity simulator');
  });

  it("refuses another user's answer version with 404", async () => {
    const { chat, latest } = await signedIn('versions-owner@example.com');
    await readParts(await chat({ text: 'Hello [sim:tokens 2]' }));
    await readParts(await chat({ regenerate: true }));
    const [, answer] = (await latest()).messages;
    const bob = await t.user('versions-intruder@example.com');
    const stolen = await bob.post<{ code: string }>(`/rest/v1/messages/${answer!.id}/select`, {});
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe('chat:version_not_found');
    // Nothing changed for the owner.
    expect((await latest()).messages[1]!.id).toBe(answer!.id);
  });

  it('answers 404 for a user message, a malformed id and an unknown one', async () => {
    const { u, chat, latest } = await signedIn('versions-bad@example.com');
    await readParts(await chat({ text: 'Hi [sim:tokens 2]' }));
    const [question] = (await latest()).messages;
    for (const id of [question!.id, 'not-a-uuid', randomUUID()]) {
      expect((await u.post(`/rest/v1/messages/${id}/select`, {})).status).toBe(404);
    }
  });

  it('keeps an edit-and-resend as a replacement, not a version', async () => {
    const { chat, latest } = await signedIn('versions-edit@example.com');
    await readParts(await chat({ text: 'first try [sim:tokens 2]' }));
    const [asked] = (await latest()).messages;
    await readParts(await chat({ text: 'second try [sim:tokens 2]', edit_of: asked!.id }));
    const page = await latest();
    expect(page.messages.map((m) => m.content.startsWith('second') || m.role)).toEqual([
      true,
      'assistant',
    ]);
    expect(page.messages[1]!.version).toBeNull();
  });
});

describe('system prompt', () => {
  it('is set on create or later, sent before every turn, and shown with the history', async () => {
    const { u, conv, chat, latest } = await signedIn('system@example.com', {
      system_prompt: 'You are a pirate.',
    });
    expect(conv.system_prompt).toBe('You are a pirate.');
    t.sim.requests.length = 0;
    await readParts(await chat({ text: 'Ahoy?' }));
    expect(lastSent()).toContain('You are a pirate.');
    expect((await latest()).system_prompt).toBe('You are a pirate.');

    const changed = await u.request<Conversation>('PATCH', `/rest/v1/conversations/${conv.id}`, {
      system_prompt: 'Answer in French.',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.system_prompt).toBe('Answer in French.');
    await readParts(await chat({ text: 'Hello?' }));
    expect(lastSent()).toContain('Answer in French.');
    expect(lastSent()).not.toContain('You are a pirate.');

    // Cleared: nothing is sent as a system message.
    await u.request('PATCH', `/rest/v1/conversations/${conv.id}`, { system_prompt: '' });
    await readParts(await chat({ text: 'Plain?' }));
    expect(lastSent()).not.toContain('Answer in French.');
  });

  it('refuses a prompt that is too long with a typed 400, and another user with 404', async () => {
    const { u, conv } = await signedIn('system-bad@example.com');
    const long = await u.request<{ code: string; error: string }>(
      'PATCH',
      `/rest/v1/conversations/${conv.id}`,
      { system_prompt: 'x'.repeat(20_001) },
    );
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('bad_request:validation');
    expect(long.body.error).toContain('20,000');
    const bob = await t.user('system-intruder@example.com');
    const res = await bob.request('PATCH', `/rest/v1/conversations/${conv.id}`, {
      system_prompt: 'Reveal everything.',
    });
    expect(res.status).toBe(404);
  });
});

describe('a failed reply keeps its reason', () => {
  it('stores the code and message of a provider failure, shown again after a reload', async () => {
    const { chat, latest } = await signedIn('failure-kept@example.com');
    const parts = await readParts(await chat({ text: 'busy [sim:429]' }));
    const shown = parts.find((p) => p.type === 'error')?.errorText;
    const reply = (await latest()).messages.at(-1)!;
    expect(reply.status).toBe('error');
    expect(reply.error).toEqual({ code: 'provider:rate_limited', message: shown });
  }, 30_000);

  it('says nothing of a failure on a reply that finished, or that the user stopped', async () => {
    const { chat, latest } = await signedIn('failure-none@example.com');
    await readParts(await chat({ text: 'fine [sim:tokens 2]' }));
    expect((await latest()).messages.at(-1)!.error).toBeNull();
  });
});

describe('a retried send', () => {
  it('is stored under the id the client made, and never twice', async () => {
    const { chat, latest } = await signedIn('retried@example.com');
    const id = randomUUID();
    await readParts(await chat({ text: 'Only once [sim:tokens 2]', message_id: id }));
    expect((await latest()).messages[0]!.id).toBe(id);

    const again = await chat({ text: 'Only once [sim:tokens 2]', message_id: id });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('chat:already_sent');
    expect((await latest()).messages).toHaveLength(2);
  });
});
